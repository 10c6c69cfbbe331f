import torch.nn as nn

from .blocks import DoubleConv, Down, Up


class UNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=2, base=16):
        super().__init__()
        self.inc = DoubleConv(in_channels, base)
        self.down1 = Down(base, base * 2)
        self.down2 = Down(base * 2, base * 4)
        self.up1 = Up(base * 4, base * 2, base * 2)
        self.up2 = Up(base * 2, base, base)
        self.head = nn.Conv2d(base, num_classes, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x = self.up1(x3, x2)
        x = self.up2(x, x1)
        return self.head(x)
