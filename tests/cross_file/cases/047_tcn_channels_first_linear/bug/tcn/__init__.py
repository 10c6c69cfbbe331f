from .layers import TemporalBlock
from .network import TemporalConvNet

__all__ = ["TemporalBlock", "TemporalConvNet"]
