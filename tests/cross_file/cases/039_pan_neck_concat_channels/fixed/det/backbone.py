import torch.nn as nn

from .layers import ConvBNAct


class TinyBackbone(nn.Module):
    def __init__(self, widths=(16, 32, 64, 128, 256)):
        super().__init__()
        chans = (3,) + tuple(widths)
        self.stages = nn.ModuleList(
            nn.Sequential(ConvBNAct(chans[i], chans[i + 1], 3, 2), ConvBNAct(chans[i + 1], chans[i + 1], 3))
            for i in range(len(widths))
        )
        self.out_channels = tuple(widths[-3:])

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats[-3:]
