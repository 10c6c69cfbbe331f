import torch
import torch.nn as nn


class ConvBNAct(nn.Sequential):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__(
            nn.Conv2d(c1, c2, k, s, k // 2, bias=False),
            nn.BatchNorm2d(c2),
            nn.SiLU(inplace=True),
        )


class Focus(nn.Module):
    def __init__(self, c1, c2, k=3):
        super().__init__()
        self.conv = ConvBNAct(c1 * 4, c2, k)

    def forward(self, x):
        b, c, h, w = x.shape
        x = x.view(b, c, h // 2, 2, w // 2, 2)
        x = x.permute(0, 3, 5, 1, 2, 4)
        x = x.reshape(b, c * 4, h // 2, w // 2)
        return self.conv(x)


class TinyBackbone(nn.Module):
    def __init__(self, in_ch=3, width=16):
        super().__init__()
        self.stem = Focus(in_ch, width)
        self.stages = nn.Sequential(
            ConvBNAct(width, width * 2, 3, 2),
            ConvBNAct(width * 2, width * 2, 3),
            ConvBNAct(width * 2, width * 4, 3, 2),
        )

    def forward(self, x):
        return self.stages(self.stem(x))
