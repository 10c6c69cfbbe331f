import torch.nn as nn


def conv(in_ch, out_ch, stride=1):
    return nn.Sequential(nn.Conv2d(in_ch, out_ch, 3, stride, 1, bias=False), nn.BatchNorm2d(out_ch), nn.LeakyReLU(0.1))


class DarknetTiny(nn.Module):
    stride = 32

    def __init__(self):
        super().__init__()
        chs = [3, 16, 32, 64, 128, 256]
        self.layers = nn.Sequential(*[conv(chs[i], chs[i + 1], stride=2) for i in range(5)])
        self.out_channels = chs[-1]

    def forward(self, x):
        return self.layers(x)
