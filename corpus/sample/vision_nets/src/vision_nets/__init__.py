"""vision_nets: small convolutional models for the shapehound sample corpus."""

from .models.resnetish import ResNetish
from .models.spectral import FourierMixer, SpectralNorm1d

__all__ = ["ResNetish", "FourierMixer", "SpectralNorm1d"]
__version__ = "0.1.0"
