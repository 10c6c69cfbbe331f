import argparse

import torch
import torch.nn as nn


def norm_layer(num_groups, channels):
    return nn.GroupNorm(min(num_groups, channels), channels)


class ConvGNBlock(nn.Module):
    def __init__(self, in_ch, out_ch, num_groups, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False)
        self.norm1 = norm_layer(num_groups, out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False)
        self.norm2 = norm_layer(num_groups, out_ch)
        self.act = nn.SiLU()

    def forward(self, x):
        x = self.act(self.norm1(self.conv1(x)))
        return self.act(self.norm2(self.conv2(x)))


class SmallBatchSegNet(nn.Module):
    def __init__(self, num_groups=8, widths=(24, 48, 96), num_classes=5):
        super().__init__()
        stages = []
        in_ch = 3
        for i, width in enumerate(widths):
            stages.append(ConvGNBlock(in_ch, width, num_groups, stride=1 if i == 0 else 2))
            in_ch = width
        self.stages = nn.Sequential(*stages)
        self.classifier = nn.Conv2d(in_ch, num_classes, 1)
        self.upsample = nn.Upsample(scale_factor=2 ** (len(widths) - 1), mode="bilinear", align_corners=False)

    def forward(self, x):
        return self.upsample(self.classifier(self.stages(x)))


def run(num_groups=8):
    model = SmallBatchSegNet(num_groups=num_groups)
    images = torch.randn(1, 3, 32, 32)
    return model(images)


def build_parser():
    parser = argparse.ArgumentParser(description="Segmentation net with GroupNorm for batch size 1")
    parser.add_argument("--num-groups", type=int, default=32, choices=list(range(1, 65)))
    parser.add_argument("--batch-size", type=int, default=1)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    masks = run(num_groups=args.num_groups)
    print("masks", tuple(masks.shape))


if __name__ == "__main__":
    main()
