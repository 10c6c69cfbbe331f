"""Layer building blocks shared by the vision_nets models."""

from .blocks import ConvBlock, ResidualBlock, make_stage
from .heads import PyramidPoolHead

__all__ = ["ConvBlock", "ResidualBlock", "make_stage", "PyramidPoolHead"]
