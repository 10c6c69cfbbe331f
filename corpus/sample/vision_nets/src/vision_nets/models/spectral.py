"""Spectral feature extractors built on torch.fft and torch.linalg."""

import torch as t
import torch.nn as nn
from torch.nn import functional as F


class SpectralNorm1d(nn.Module):
    """Normalises each token to unit L2 norm, then projects it."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        norms = t.linalg.norm(x, dim=-1, keepdim=True)
        x = x / (norms + self.eps)
        return self.proj(x)


class FourierMixer(nn.Module):
    """Mixes tokens along the sequence axis in the frequency domain."""

    def __init__(self, seq_len, dim):
        super().__init__()
        self.weight = nn.Parameter(t.ones(seq_len // 2 + 1, dim))
        self.seq_len = seq_len

    def forward(self, x):
        spec = t.fft.rfft(x, dim=1)
        spec = spec * self.weight.unsqueeze(0)
        mixed = t.fft.irfft(spec, n=self.seq_len, dim=1)
        return F.gelu(mixed)


def band_energy(signal, bands=4):
    spec = t.fft.rfft(signal).abs() ** 2
    chunks = spec.chunk(bands, dim=-1)
    return t.stack([c.sum(dim=-1) for c in chunks], dim=-1)
