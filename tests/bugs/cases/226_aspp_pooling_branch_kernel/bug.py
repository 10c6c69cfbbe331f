import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(in_ch, out_ch, kernel_size, padding=0, dilation=1):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel_size, padding=padding, dilation=dilation, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )


class ASPP(nn.Module):
    def __init__(self, in_channels, out_channels=256, rates=(6, 12, 18)):
        super().__init__()
        branches = [conv_bn_relu(in_channels, out_channels, 1)]
        for r in rates:
            branches.append(conv_bn_relu(in_channels, out_channels, 3, padding=r, dilation=r))
        self.branches = nn.ModuleList(branches)
        self.image_pool = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            conv_bn_relu(in_channels, out_channels, 3),
        )
        self.project = nn.Sequential(
            conv_bn_relu((len(rates) + 2) * out_channels, out_channels, 1),
            nn.Dropout(0.5),
        )

    def forward(self, x):
        size = x.shape[-2:]
        feats = [branch(x) for branch in self.branches]
        pooled = self.image_pool(x)
        feats.append(F.interpolate(pooled, size=size, mode="bilinear", align_corners=False))
        return self.project(torch.cat(feats, dim=1))
