import torch
import torch.nn as nn

from layers import *


class InceptionSE(nn.Module):
    def __init__(self, in_ch, b1, b3_reduce, b3, b5_reduce, b5, pool_proj):
        super().__init__()
        self.branch1 = ConvBNReLU(in_ch, b1, 1)
        self.branch3 = nn.Sequential(ConvBNReLU(in_ch, b3_reduce, 1), ConvBNReLU(b3_reduce, b3, 3))
        self.branch5 = nn.Sequential(
            ConvBNReLU(in_ch, b5_reduce, 1), ConvBNReLU(b5_reduce, b5, 3), ConvBNReLU(b5, b5, 3)
        )
        self.branch_pool = nn.Sequential(nn.MaxPool2d(3, 1, 1), ConvBNReLU(in_ch, pool_proj, 1))
        self.out_channels = b1 + b3 + b5 + pool_proj
        self.se = SqueezeExcite(b1 + b3 + b5 + pool_proj)

    def forward(self, x):
        out = torch.cat([self.branch1(x), self.branch3(x), self.branch5(x), self.branch_pool(x)], dim=1)
        return self.se(out)
