import torch.nn as nn

from .layers import TemporalBlock


class TemporalConvNet(nn.Module):
    def __init__(self, in_features, channels=(32, 32, 64, 64), kernel_size=3, dropout=0.1):
        super().__init__()
        blocks = []
        in_ch = in_features
        for i, ch in enumerate(channels):
            blocks.append(TemporalBlock(in_ch, ch, kernel_size, dilation=2 ** i, dropout=dropout))
            in_ch = ch
        self.net = nn.Sequential(*blocks)
        self.out_features = in_ch

    def forward(self, x):
        y = self.net(x.transpose(1, 2))
        return y
