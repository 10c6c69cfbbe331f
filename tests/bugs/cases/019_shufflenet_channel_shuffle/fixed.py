import torch
import torch.nn as nn


def conv_bn_relu(in_ch, out_ch, kernel, groups=1):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel, padding=kernel // 2, groups=groups, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )


class ShuffleUnit(nn.Module):
    """ShuffleNetV2 basic unit (stride 1): split, transform one half, concat, shuffle."""

    def __init__(self, channels):
        super().__init__()
        half = channels // 2
        self.branch = nn.Sequential(
            conv_bn_relu(half, half, 1),
            nn.Conv2d(half, half, 3, padding=1, groups=half, bias=False),
            nn.BatchNorm2d(half),
            conv_bn_relu(half, half, 1),
        )

    def forward(self, x):
        x1, x2 = x.chunk(2, dim=1)
        out = torch.cat([x1, self.branch(x2)], dim=1)
        b, c, h, w = out.shape
        out = out.view(b, 2, c // 2, h, w)
        out = out.transpose(1, 2).contiguous()
        return out.view(b, c, h, w)
