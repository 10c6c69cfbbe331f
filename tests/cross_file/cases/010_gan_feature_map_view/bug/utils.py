import torch.nn as nn


def to_feature_map(x, channels, size):
    return x.view(x.size(0), channels, size, size)


def upsample_block(in_ch, out_ch):
    return nn.Sequential(
        nn.ConvTranspose2d(in_ch, out_ch, kernel_size=4, stride=2, padding=1),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )
