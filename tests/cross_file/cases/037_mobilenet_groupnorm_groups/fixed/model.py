import torch.nn as nn

from config import DROPOUT, IN_CHANNELS, NUM_CLASSES, STEM_WIDTH, STRIDES, WIDTHS
from layers import ConvNormAct, InvertedResidual


class MobileNetGN(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = ConvNormAct(IN_CHANNELS, STEM_WIDTH, stride=2)
        blocks = []
        in_ch = STEM_WIDTH
        for width, stride in zip(WIDTHS, STRIDES):
            blocks.append(InvertedResidual(in_ch, width, stride))
            blocks.append(InvertedResidual(width, width, 1))
            in_ch = width
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Sequential(nn.Dropout(DROPOUT), nn.Linear(in_ch, NUM_CLASSES))

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(self.pool(x).flatten(1))
