import torch


def add_deltas(feats: torch.Tensor) -> torch.Tensor:
    """[batch, time, n_mels] -> [batch, time, 2 * n_mels] with first-order deltas."""
    delta = torch.diff(feats, dim=1, prepend=feats[:, :1])
    return torch.cat([feats, delta], dim=-1)


def normalize(feats: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    mean = feats.mean(dim=1, keepdim=True)
    std = feats.std(dim=1, keepdim=True)
    return (feats - mean) / (std + eps)


def prepare_batch(spectrogram: torch.Tensor) -> torch.Tensor:
    """spectrogram: [batch, n_mels, time] power spectrogram."""
    logmel = torch.log(spectrogram + 1e-6).transpose(1, 2)
    return add_deltas(normalize(logmel))
