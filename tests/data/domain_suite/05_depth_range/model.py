import argparse

import torch
import torch.nn as nn


def conv_stage(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel_size=3, padding=1),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
    )


class PlainCNN(nn.Module):
    def __init__(self, depth=3, base_channels=8, num_classes=10):
        super().__init__()
        stages = []
        in_ch = 3
        for i in range(depth):
            out_ch = min(base_channels * 2 ** i, 64)
            stages.append(conv_stage(in_ch, out_ch))
            in_ch = out_ch
        self.stages = nn.Sequential(*stages)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(in_ch, num_classes)

    def forward(self, x):
        x = self.stages(x)
        x = self.pool(x).flatten(1)
        return self.classifier(x)


def run(depth=3):
    model = PlainCNN(depth=depth)
    x = torch.randn(2, 3, 32, 32)
    return model(x)


def build_parser():
    parser = argparse.ArgumentParser(description="CIFAR-style plain CNN")
    parser.add_argument("--depth", type=int, default=3, help="number of conv stages")
    parser.add_argument("--batch-size", type=int, default=64)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    assert 1 <= args.depth <= 6, "depth must be between 1 and 6"
    logits = run(depth=args.depth)
    print("output", tuple(logits.shape))


if __name__ == "__main__":
    main()
