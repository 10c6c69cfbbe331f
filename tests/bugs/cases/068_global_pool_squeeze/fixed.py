import torch
import torch.nn as nn


class SqueezeExcite(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        hidden = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, hidden)
        self.fc2 = nn.Linear(hidden, channels)

    def forward(self, x):
        s = nn.functional.adaptive_avg_pool2d(x, 1).squeeze(-1).squeeze(-1)
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(s))))
        return x * s[:, :, None, None]


class MBConv(nn.Module):
    def __init__(self, in_ch, out_ch, expand=4):
        super().__init__()
        mid = in_ch * expand
        self.expand = nn.Sequential(nn.Conv2d(in_ch, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.SiLU())
        self.dw = nn.Sequential(
            nn.Conv2d(mid, mid, 3, padding=1, groups=mid, bias=False), nn.BatchNorm2d(mid), nn.SiLU()
        )
        self.se = SqueezeExcite(mid)
        self.project = nn.Sequential(nn.Conv2d(mid, out_ch, 1, bias=False), nn.BatchNorm2d(out_ch))
        self.residual = in_ch == out_ch

    def forward(self, x):
        out = self.project(self.se(self.dw(self.expand(x))))
        return x + out if self.residual else out
