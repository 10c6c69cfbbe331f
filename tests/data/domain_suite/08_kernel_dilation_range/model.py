import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class DilatedConvNet(nn.Module):
    def __init__(self, kernel_size=3, dilation=1, channels=16, num_classes=4):
        super().__init__()
        self.conv1 = nn.Conv1d(4, channels, kernel_size, dilation=dilation)
        self.conv2 = nn.Conv1d(channels, channels, kernel_size, dilation=dilation)
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.adaptive_max_pool1d(x, 1).squeeze(-1)
        return self.fc(x)


def run(kernel_size=3, dilation=1):
    model = DilatedConvNet(kernel_size=kernel_size, dilation=dilation)
    seq = torch.randn(2, 4, 16)
    return model(seq)


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernel-size", type=int, default=3)
    parser.add_argument("--dilation", type=int, default=1)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    assert 1 <= args.kernel_size <= 9, "kernel size out of range"
    assert 1 <= args.dilation <= 3, "dilation out of range"
    out = run(kernel_size=args.kernel_size, dilation=args.dilation)
    print(out.shape)


if __name__ == "__main__":
    main()
