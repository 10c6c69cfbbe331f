"""Classification and pooling heads."""

import torch
from torch import nn, cat as concat

from .blocks import ConvBlock


class PyramidPoolHead(nn.Module):
    """Spatial pyramid pooling followed by a linear classifier."""

    def __init__(self, in_ch, num_classes, bins=(1, 2, 4)):
        super().__init__()
        self.bins = bins
        self.reduce = ConvBlock(in_ch, in_ch // 2)
        self.pools = nn.ModuleList([nn.AdaptiveAvgPool2d(b) for b in bins])
        pooled = (in_ch // 2) * sum(b * b for b in bins)
        self.fc = nn.Linear(pooled, num_classes)

    def forward(self, x):
        x = self.reduce(x)
        feats = [pool(x).flatten(1) for pool in self.pools]
        x = concat(feats, dim=1)
        return self.fc(x)


class TokenHead(nn.Module):
    """Turns a feature map into a sequence of tokens plus a class token."""

    def __init__(self, channels):
        super().__init__()
        self.cls = nn.Parameter(torch.zeros(1, 1, channels))

    def forward(self, x):
        tokens = x.flatten(2).transpose(1, 2)
        cls = self.cls.expand(tokens.size(0), -1, -1)
        return concat([cls, tokens], dim=1)
