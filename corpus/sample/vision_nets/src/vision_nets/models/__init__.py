"""Model definitions."""

from .resnetish import ResNetish
from .spectral import FourierMixer, SpectralNorm1d

__all__ = ["ResNetish", "FourierMixer", "SpectralNorm1d"]
