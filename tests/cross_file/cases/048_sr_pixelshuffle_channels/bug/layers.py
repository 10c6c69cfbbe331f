import torch
import torch.nn as nn


def conv3x3(in_ch, out_ch):
    return nn.Conv2d(in_ch, out_ch, 3, padding=1)


def subpixel_conv(in_ch, out_ch, scale):
    return conv3x3(in_ch, out_ch * scale)


class ResBlock(nn.Module):
    def __init__(self, channels, res_scale=0.1):
        super().__init__()
        self.body = nn.Sequential(conv3x3(channels, channels), nn.ReLU(inplace=True), conv3x3(channels, channels))
        self.res_scale = res_scale

    def forward(self, x):
        return x + self.res_scale * self.body(x)


class MeanShift(nn.Conv2d):
    def __init__(self, mean=(0.4488, 0.4371, 0.4040), sign=-1):
        super().__init__(3, 3, 1)
        self.weight.data.copy_(torch.eye(3).view(3, 3, 1, 1))
        self.bias.data.copy_(sign * torch.tensor(mean))
        self.requires_grad_(False)
