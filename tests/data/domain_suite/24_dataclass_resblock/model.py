from dataclasses import dataclass
from typing import Literal

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class BlockConfig:
    in_channels: int = 16
    out_channels: Literal[16, 32] = 32
    stride: Literal[1, 2] = 1


class ResidualBlock(nn.Module):
    def __init__(self, cfg: BlockConfig):
        super().__init__()
        self.conv1 = nn.Conv2d(cfg.in_channels, cfg.out_channels, 3, stride=cfg.stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cfg.out_channels)
        self.conv2 = nn.Conv2d(cfg.out_channels, cfg.out_channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cfg.out_channels)
        if cfg.in_channels != cfg.out_channels:
            self.downsample = nn.Sequential(
                nn.Conv2d(cfg.in_channels, cfg.out_channels, 1, stride=cfg.stride, bias=False),
                nn.BatchNorm2d(cfg.out_channels),
            )
        else:
            self.downsample = nn.Identity()

    def forward(self, x):
        identity = self.downsample(x)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + identity)


def run(out_channels=32, stride=1):
    cfg = BlockConfig(out_channels=out_channels, stride=stride)
    block = ResidualBlock(cfg)
    x = torch.randn(2, cfg.in_channels, 16, 16)
    return block(x)


def main():
    cfg = BlockConfig()
    y = run(out_channels=cfg.out_channels, stride=cfg.stride)
    print(y.shape)


if __name__ == "__main__":
    main()
