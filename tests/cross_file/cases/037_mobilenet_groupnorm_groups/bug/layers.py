import torch.nn as nn

from config import EXPAND_RATIO, GN_GROUPS


def norm(channels):
    return nn.GroupNorm(GN_GROUPS, channels)


class ConvNormAct(nn.Sequential):
    def __init__(self, in_ch, out_ch, kernel=3, stride=1, groups=1, act=True):
        layers = [
            nn.Conv2d(in_ch, out_ch, kernel, stride, kernel // 2, groups=groups, bias=False),
            norm(out_ch),
        ]
        if act:
            layers.append(nn.ReLU6(inplace=True))
        super().__init__(*layers)


class InvertedResidual(nn.Module):
    def __init__(self, in_ch, out_ch, stride):
        super().__init__()
        hidden = in_ch * EXPAND_RATIO
        self.use_res = stride == 1 and in_ch == out_ch
        self.block = nn.Sequential(
            ConvNormAct(in_ch, hidden, kernel=1),
            ConvNormAct(hidden, hidden, kernel=3, stride=stride, groups=hidden),
            ConvNormAct(hidden, out_ch, kernel=1, act=False),
        )

    def forward(self, x):
        out = self.block(x)
        return x + out if self.use_res else out
