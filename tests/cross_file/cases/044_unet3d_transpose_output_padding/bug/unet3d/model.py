import torch
import torch.nn as nn

import unet3d.blocks as B


class UNet3D(nn.Module):
    def __init__(self, in_ch=1, num_classes=3, base=8):
        super().__init__()
        self.inc = B.DoubleConv3d(in_ch, base)
        self.down1 = B.Down(base, base * 2)
        self.down2 = B.Down(base * 2, base * 4)
        self.up2 = B.upsample(base * 4, base * 2)
        self.dec2 = B.DoubleConv3d(base * 4, base * 2)
        self.up1 = B.upsample(base * 2, base)
        self.dec1 = B.DoubleConv3d(base * 2, base)
        self.head = nn.Conv3d(base, num_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        y = self.dec2(torch.cat([self.up2(x3), x2], dim=1))
        y = self.dec1(torch.cat([self.up1(y), x1], dim=1))
        return self.head(y)
