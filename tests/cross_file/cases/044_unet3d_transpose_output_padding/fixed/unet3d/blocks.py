import torch.nn as nn


class DoubleConv3d(nn.Sequential):
    def __init__(self, in_ch, out_ch, groups=4):
        super().__init__(
            nn.Conv3d(in_ch, out_ch, 3, padding=1, bias=False),
            nn.GroupNorm(groups, out_ch),
            nn.ReLU(inplace=True),
            nn.Conv3d(out_ch, out_ch, 3, padding=1, bias=False),
            nn.GroupNorm(groups, out_ch),
            nn.ReLU(inplace=True),
        )


class Down(nn.Sequential):
    def __init__(self, in_ch, out_ch):
        super().__init__(nn.MaxPool3d(2), DoubleConv3d(in_ch, out_ch))


def upsample(in_ch, out_ch):
    return nn.ConvTranspose3d(in_ch, out_ch, kernel_size=3, stride=2, padding=1, output_padding=1)
