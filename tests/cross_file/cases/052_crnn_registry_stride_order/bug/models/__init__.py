from .registry import BACKBONES, register
from . import backbones

__all__ = ["BACKBONES", "register", "backbones"]
