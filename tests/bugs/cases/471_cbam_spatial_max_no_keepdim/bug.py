import torch
import torch.nn as nn


class ChannelGate(nn.Module):
    def __init__(self, channels, reduction=8):
        super().__init__()
        hidden = max(channels // reduction, 4)
        self.mlp = nn.Sequential(nn.Linear(channels, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, channels))

    def forward(self, x):
        avg = self.mlp(x.mean(dim=(2, 3)))
        mx = self.mlp(x.amax(dim=(2, 3)))
        return x * torch.sigmoid(avg + mx)[:, :, None, None]


class SpatialGate(nn.Module):
    def __init__(self, kernel=7):
        super().__init__()
        self.conv = nn.Conv2d(2, 1, kernel, padding=kernel // 2, bias=False)
        self.bn = nn.BatchNorm2d(1)

    def forward(self, x):
        avg_map = x.mean(dim=1, keepdim=True)
        max_map, _ = x.max(dim=1)
        pooled = torch.cat([avg_map, max_map], dim=1)
        return x * torch.sigmoid(self.bn(self.conv(pooled)))


class CBAMBlock(nn.Module):
    def __init__(self, channels, reduction=8, kernel=7):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(inplace=True),
        )
        self.channel_gate = ChannelGate(channels, reduction)
        self.spatial_gate = SpatialGate(kernel)

    def forward(self, x):
        out = self.body(x)
        out = self.spatial_gate(self.channel_gate(out))
        return torch.relu(out + x)
