import torch.nn as nn


def conv_bn(in_ch, out_ch, stride):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.SiLU(),
    )


class Backbone(nn.Module):
    out_channels = 256

    def __init__(self):
        super().__init__()
        self.stages = nn.Sequential(
            conv_bn(3, 32, 2),
            conv_bn(32, 64, 2),
            conv_bn(64, 128, 2),
            conv_bn(128, 256, 2),
        )

    def forward(self, x):
        return self.stages(x)
