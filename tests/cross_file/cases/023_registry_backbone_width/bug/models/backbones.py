import torch.nn as nn

from . import register


def _conv(in_ch, out_ch):
    return nn.Sequential(nn.Conv2d(in_ch, out_ch, 3, stride=2, padding=1), nn.BatchNorm2d(out_ch), nn.ReLU())


@register("small")
class SmallBackbone(nn.Module):
    out_dim = 128

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(_conv(3, 32), _conv(32, 64), _conv(64, 128), nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return self.body(x).flatten(1)


@register("base")
class BaseBackbone(nn.Module):
    out_dim = 512

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(_conv(3, 64), _conv(64, 128), _conv(128, 256), _conv(256, 512), nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return self.body(x).flatten(1)
