import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, 1, stride=stride, bias=False),
                nn.BatchNorm2d(planes),
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class CifarResNet(nn.Module):
    def __init__(self, widths=(8, 16, 32, 64), num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, widths[0], 3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        layers = []
        in_planes = widths[0]
        for i, planes in enumerate(widths):
            stride = 1 if i == 0 else 2
            layers.append(BasicBlock(in_planes, planes, stride))
            in_planes = planes
        self.layers = nn.Sequential(*layers)
        self.linear = nn.Linear(widths[-1], num_classes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layers(out)
        out = F.avg_pool2d(out, 4)
        out = out.view(out.size(0), -1)
        return self.linear(out)


def run(crop_size=32):
    model = CifarResNet()
    images = torch.randn(2, 3, crop_size, crop_size)
    return model(images)


def build_parser():
    parser = argparse.ArgumentParser(description="ResNet on random crops of CIFAR images")
    parser.add_argument("--crop-size", type=int, default=32, help="side of the random crop")
    parser.add_argument("--epochs", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.1)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    assert 8 <= args.crop_size <= 64, "--crop-size must lie in [8, 64]"
    logits = run(crop_size=args.crop_size)
    print("logits", tuple(logits.shape))


if __name__ == "__main__":
    main()
