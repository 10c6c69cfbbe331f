import torch
import torch.nn as nn

from .layers import ConvBNAct


class PANNeck(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        c3, c4, c5 = in_channels
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.reduce5 = ConvBNAct(c5, c4, 1)
        self.merge4 = ConvBNAct(c4 * 2, c4, 3)
        self.reduce4 = ConvBNAct(c4, c3, 1)
        self.merge3 = ConvBNAct(c3 * 2, c3, 3)
        self.down3 = ConvBNAct(c3, c3, 3, 2)
        self.merge_n4 = ConvBNAct(c3 * 2, c4, 3)
        self.down4 = ConvBNAct(c4, c4, 3, 2)
        self.merge_n5 = ConvBNAct(c4 * 2, c5, 3)
        self.out_channels = (c3, c4, c5)

    def forward(self, feats):
        x3, x4, x5 = feats
        p5 = self.reduce5(x5)
        p4 = self.merge4(torch.cat([self.up(p5), x4], dim=1))
        p4r = self.reduce4(p4)
        out3 = self.merge3(torch.cat([self.up(p4r), x3], dim=1))
        out4 = self.merge_n4(torch.cat([self.down3(out3), p4r], dim=1))
        out5 = self.merge_n5(torch.cat([self.down4(out4), p5], dim=1))
        return out3, out4, out5
