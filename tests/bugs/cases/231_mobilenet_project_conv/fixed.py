import torch
import torch.nn as nn


class InvertedResidual(nn.Module):
    expansion = 6

    def __init__(self, in_ch, out_ch, stride=1):
        super().__init__()
        hidden = in_ch * self.expansion
        self.use_res = stride == 1 and in_ch == out_ch
        self.expand = nn.Sequential(
            nn.Conv2d(in_ch, hidden, 1, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True),
        )
        self.depthwise = nn.Sequential(
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True),
        )
        self.project = nn.Sequential(
            nn.Conv2d(hidden, out_ch, 1, bias=False),
            nn.BatchNorm2d(out_ch),
        )

    def forward(self, x):
        out = self.project(self.depthwise(self.expand(x)))
        return x + out if self.use_res else out


class TinyMobileNet(nn.Module):
    def __init__(self, in_channels=3, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(in_channels, 16, 3, 2, 1, bias=False),
            nn.BatchNorm2d(16),
            nn.ReLU6(inplace=True),
        )
        cfg = [(16, 24, 2), (24, 24, 1), (24, 32, 2), (32, 32, 1)]
        self.blocks = nn.Sequential(*[InvertedResidual(i, o, s) for i, o, s in cfg])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(self.pool(x).flatten(1))
