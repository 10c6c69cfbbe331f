import torch


def time_mask(spec: torch.Tensor, max_width: int = 10, n_masks: int = 2) -> torch.Tensor:
    """SpecAugment time masking on a batch of spectrograms [batch, n_freq, n_time]."""
    x = spec.transpose(1, 2).clone()
    batch, n_time, _ = x.shape
    for _ in range(n_masks):
        width = torch.randint(0, max_width + 1, (batch,))
        start = (torch.rand(batch) * (n_time - width).clamp_min(1)).long()
        idx = torch.arange(n_time)[None, :]
        mask = (idx >= start[:, None]) & (idx < (start + width)[:, None])
        x = x.masked_fill(mask[:, :, None], 0.0)
    return x.transpose(1, 2)


def augment_batch(spec: torch.Tensor, p: float = 1.0) -> torch.Tensor:
    if torch.rand(()) < p:
        spec = time_mask(spec)
    return spec
