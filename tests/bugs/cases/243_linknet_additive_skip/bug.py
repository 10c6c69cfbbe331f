import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(in_ch, out_ch, stride=1):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )


class DecoderBlock(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.reduce = conv_bn_relu(in_ch, in_ch // 2)
        self.expand = conv_bn_relu(in_ch // 2, out_ch)

    def forward(self, x, size):
        x = self.reduce(x)
        x = F.interpolate(x, size=size, mode="bilinear", align_corners=False)
        return self.expand(x)


class LinkNet(nn.Module):
    def __init__(self, in_channels=3, num_classes=2, width=16):
        super().__init__()
        widths = [width, width * 2, width * 4, width * 8]
        self.stem = conv_bn_relu(in_channels, widths[0])
        self.enc = nn.ModuleList()
        for i in range(1, 4):
            self.enc.append(conv_bn_relu(widths[i - 1], widths[i], stride=2))
        self.dec = nn.ModuleList()
        for i in range(3, 0, -1):
            self.dec.append(DecoderBlock(widths[i], widths[i]))
        self.classifier = nn.Conv2d(widths[0], num_classes, 1)

    def forward(self, x):
        skips = [self.stem(x)]
        for layer in self.enc:
            skips.append(layer(skips[-1]))
        y = skips.pop()
        for block in self.dec:
            skip = skips.pop()
            y = block(y, skip.shape[-2:]) + skip
        return self.classifier(y)
