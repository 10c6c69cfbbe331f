import argparse

import torch
import torch.nn as nn


def make_norm(kind, channels):
    if kind == "batch":
        return nn.BatchNorm2d(channels)
    if kind == "layer":
        return nn.LayerNorm(channels)
    if kind == "group":
        return nn.GroupNorm(16, channels)
    if kind == "instance":
        return nn.InstanceNorm2d(channels)
    raise ValueError(f"unknown norm: {kind}")


class ConvBlock(nn.Module):
    def __init__(self, in_ch, out_ch, norm):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, 3, padding=1, bias=False)
        self.norm = make_norm(norm, out_ch)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class Classifier(nn.Module):
    def __init__(self, width=32, norm="batch", num_classes=10):
        super().__init__()
        self.block1 = ConvBlock(3, width, norm)
        self.block2 = ConvBlock(width, width, norm)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(width, num_classes)

    def forward(self, x):
        x = self.block1(x)
        x = self.block2(x)
        return self.head(self.pool(x).flatten(1))


def run(norm="batch", width=32):
    model = Classifier(width=width, norm=norm)
    x = torch.randn(2, 3, 16, 16)
    return model(x)


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--norm", default="batch", choices=["batch", "layer", "group", "instance"])
    parser.add_argument("--width", type=int, default=32, choices=[16, 24, 32])
    parser.add_argument("--epochs", type=int, default=10)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    out = run(norm=args.norm, width=args.width)
    print(f"norm={args.norm} width={args.width} -> {tuple(out.shape)}")


if __name__ == "__main__":
    main()
