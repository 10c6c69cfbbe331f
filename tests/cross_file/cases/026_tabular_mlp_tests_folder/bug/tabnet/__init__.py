from .model import ResidualMLP

__all__ = ["ResidualMLP"]
