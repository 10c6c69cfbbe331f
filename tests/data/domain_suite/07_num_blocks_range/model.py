import argparse

import torch
import torch.nn as nn


class DownBlock1d(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.conv = nn.Conv1d(in_ch, out_ch, kernel_size=3, stride=2, padding=1)
        self.bn = nn.BatchNorm1d(out_ch)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class SignalEncoder(nn.Module):
    def __init__(self, num_blocks=2, base_channels=8, num_classes=5):
        super().__init__()
        blocks = []
        ch = base_channels
        self.stem = nn.Conv1d(1, base_channels, kernel_size=5, padding=2)
        for _ in range(num_blocks):
            blocks.append(DownBlock1d(ch, ch * 2))
            ch *= 2
        self.blocks = nn.Sequential(*blocks)
        self.out_channels = base_channels * 2 * num_blocks
        self.head = nn.Linear(self.out_channels, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        x = x.mean(dim=-1)
        return self.head(x)


def run(num_blocks=2):
    model = SignalEncoder(num_blocks=num_blocks)
    signal = torch.randn(2, 1, 64)
    return model(signal)


def build_parser():
    parser = argparse.ArgumentParser(description="1D signal classifier")
    parser.add_argument("--num-blocks", type=int, default=2)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.num_blocks < 1 or args.num_blocks > 4:
        raise ValueError("num_blocks must be between 1 and 4")
    print(run(num_blocks=args.num_blocks).shape)


if __name__ == "__main__":
    main()
