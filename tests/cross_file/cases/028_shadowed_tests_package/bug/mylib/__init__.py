from .nets import Classifier, Encoder

__all__ = ["Classifier", "Encoder"]
