import torch
import torch.nn as nn


class BasicConv(nn.Module):
    def __init__(self, in_ch, out_ch, **kwargs):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, bias=False, **kwargs)
        self.bn = nn.BatchNorm2d(out_ch, eps=0.001)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class InceptionBlock(nn.Module):
    def __init__(self, in_ch, c1, c3_red, c3, c5_red, c5, pool_proj):
        super().__init__()
        self.branches = nn.ModuleList([
            BasicConv(in_ch, c1, kernel_size=1),
            nn.Sequential(BasicConv(in_ch, c3_red, kernel_size=1), BasicConv(c3_red, c3, kernel_size=3, padding=1)),
            nn.Sequential(BasicConv(in_ch, c5_red, kernel_size=1), BasicConv(c5_red, c5, kernel_size=5, padding=2)),
            nn.Sequential(nn.MaxPool2d(3, stride=1, padding=1), BasicConv(in_ch, pool_proj, kernel_size=1)),
        ])

    def forward(self, x):
        return torch.cat([branch(x) for branch in self.branches], dim=1)
