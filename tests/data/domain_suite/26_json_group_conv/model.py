import json
from pathlib import Path

import torch
import torch.nn as nn


class GroupedBlock(nn.Module):
    def __init__(self, channels, groups):
        super().__init__()
        self.grouped = nn.Conv2d(channels, channels * 2, kernel_size=3, padding=1, groups=groups)
        self.pointwise = nn.Conv2d(channels * 2, channels, kernel_size=1)
        self.bn = nn.BatchNorm2d(channels)

    def forward(self, x):
        return torch.relu(self.bn(self.pointwise(self.grouped(x))) + x)


class GroupNet(nn.Module):
    def __init__(self, channels=16, groups=4, num_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, channels, kernel_size=3, padding=1)
        self.block = GroupedBlock(channels, groups)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(channels, num_classes))

    def forward(self, x):
        return self.head(self.block(self.stem(x)))


def run(channels=16, groups=4):
    model = GroupNet(channels=channels, groups=groups)
    return model(torch.randn(2, 3, 8, 8))


def main():
    experiments = json.loads((Path(__file__).parent / "experiments.json").read_text())["experiments"]
    for exp in experiments:
        out = run(channels=exp["channels"], groups=exp["groups"])
        print(exp["name"], tuple(out.shape))


if __name__ == "__main__":
    main()
