import torch


def interleave(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Interleave two [batch, time, dim] streams along time: a0, b0, a1, b1, ..."""
    bsz, t, d = a.shape
    return torch.stack([a, b], dim=2).reshape(bsz, t, d)


def deinterleave(x: torch.Tensor):
    return x[:, 0::2], x[:, 1::2]


def merge_left_right(left: torch.Tensor, right: torch.Tensor, proj: torch.Tensor) -> torch.Tensor:
    x = interleave(left, right)
    x = torch.tanh(x @ proj)
    l2, r2 = deinterleave(x)
    return l2 + r2
