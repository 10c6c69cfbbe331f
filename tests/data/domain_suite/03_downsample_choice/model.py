import argparse

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, downsample="max", num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, kernel_size=3, padding=1),
            nn.ReLU(),
        )
        if downsample == "max":
            self.down = nn.MaxPool2d(2)
        elif downsample == "avg":
            self.down = nn.AvgPool2d(2)
        elif downsample == "stride":
            self.down = nn.Conv2d(32, 32, kernel_size=3, stride=2)
        else:
            self.down = nn.Identity()
        self.fc = nn.Linear(32 * 8 * 8, num_classes)

    def forward(self, x):
        x = self.features(x)
        x = self.down(x)
        x = torch.flatten(x, 1)
        return self.fc(x)


def run(downsample="max"):
    net = Net(downsample=downsample)
    images = torch.randn(2, 3, 16, 16)
    return net(images)


def build_parser():
    parser = argparse.ArgumentParser(description="downsampling ablation")
    parser.add_argument("--downsample", type=str, default="max", choices=["max", "avg", "stride", "none"])
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    out = run(args.downsample)
    print(args.downsample, out.shape)


if __name__ == "__main__":
    main()
