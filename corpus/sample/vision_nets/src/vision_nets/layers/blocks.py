"""Reusable convolutional building blocks."""

import torch.nn as nn
import torch.nn.functional as F
from torch.nn import BatchNorm2d, Conv2d


class ConvBlock(nn.Module):
    """Conv -> BatchNorm -> ReLU, optionally strided."""

    def __init__(self, in_ch, out_ch, stride=1):
        super().__init__()
        self.conv = Conv2d(in_ch, out_ch, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn = BatchNorm2d(out_ch)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with an identity shortcut."""

    def __init__(self, channels):
        super().__init__()
        self.first = ConvBlock(channels, channels)
        self.second = Conv2d(channels, channels, kernel_size=3, padding=1)
        self.norm = nn.BatchNorm2d(channels)
        self.drop = nn.Dropout2d(p=0.1)

    def forward(self, x):
        out = self.first(x)
        out = self.drop(self.norm(self.second(out)))
        return F.relu(out + x)


def make_stage(channels, depth):
    layers = [ResidualBlock(channels) for _ in range(depth)]
    return nn.Sequential(*layers)
