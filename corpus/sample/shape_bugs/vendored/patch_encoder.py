"""A patch encoder whose second convolution expects twice the channels the first produces."""

import torch
import torch.nn as nn


class PatchEncoder(nn.Module):
    def __init__(self, in_channels, width):
        super().__init__()
        self.stem = nn.Conv2d(in_channels, width, kernel_size=3, padding=1)
        self.expand = nn.Conv2d(2 * width, 4 * width, kernel_size=3, padding=1)
        self.norm = nn.BatchNorm2d(4 * width)

    def forward(self, x):
        x = torch.relu(self.stem(x))
        return self.norm(self.expand(x))
