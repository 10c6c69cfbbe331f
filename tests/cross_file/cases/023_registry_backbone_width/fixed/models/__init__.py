BACKBONES = {}


def register(name):
    def wrap(cls):
        BACKBONES[name] = cls
        return cls
    return wrap


from . import backbones  # noqa: E402,F401
from .heads import ClassifierHead  # noqa: E402,F401
