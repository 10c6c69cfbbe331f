from .backbone import Backbone
from .heads import DetectionHead

__all__ = ["Backbone", "DetectionHead"]
