BACKBONES = {}


def register(name):
    def wrap(cls):
        BACKBONES[name] = cls
        return cls
    return wrap
