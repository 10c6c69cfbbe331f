from .cnn import SmallCNN
from .mlp import MLPClassifier

MODELS = {
    "cnn": SmallCNN,
    "mlp": MLPClassifier,
}


def build_model(name, **kwargs):
    return MODELS[name](**kwargs)
