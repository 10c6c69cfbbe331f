import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallConvNet(nn.Module):
    def __init__(self, kernel_size=3, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size)
        self.conv2 = nn.Conv2d(16, 32, kernel_size)
        self.pool = nn.MaxPool2d(2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.pool(x)
        x = F.relu(self.conv2(x))
        x = self.gap(x).flatten(1)
        return self.fc(x)


def run(kernel_size=3):
    model = SmallConvNet(kernel_size=kernel_size)
    x = torch.randn(2, 1, 16, 16)
    return model(x)


def build_parser():
    parser = argparse.ArgumentParser(description="Train a small CNN on 16x16 digit crops")
    parser.add_argument("--kernel-size", type=int, default=3, choices=[3, 5, 7, 9])
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    logits = run(kernel_size=args.kernel_size)
    print("logits:", tuple(logits.shape))


if __name__ == "__main__":
    main()
