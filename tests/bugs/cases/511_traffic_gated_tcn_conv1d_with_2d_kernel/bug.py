import torch
import torch.nn as nn


class GatedTemporalBlock(nn.Module):
    def __init__(self, channels, kernel=2, dilation=1):
        super().__init__()
        self.filt = nn.Conv2d(channels, channels, kernel_size=(1, kernel), dilation=(1, dilation))
        self.gate = nn.Conv1d(channels, channels, kernel_size=(1, kernel), dilation=(1, dilation))
        self.norm = nn.BatchNorm2d(channels)

    def forward(self, x):
        h = torch.tanh(self.filt(x)) * torch.sigmoid(self.gate(x))
        return self.norm(h + x[..., -h.size(-1):])


class TrafficTCN(nn.Module):
    def __init__(self, in_feats=2, channels=32, horizon=12, levels=3):
        super().__init__()
        self.inp = nn.Conv2d(in_feats, channels, kernel_size=1)
        self.blocks = nn.ModuleList([GatedTemporalBlock(channels, 2, 2 ** i) for i in range(levels)])
        self.out = nn.Conv2d(channels, horizon, kernel_size=1)

    def forward(self, history):
        x = self.inp(history.permute(0, 3, 2, 1))
        for block in self.blocks:
            x = block(x)
        return self.out(x[..., -1:]).squeeze(-1).transpose(1, 2)
