import torch
import torch.nn as nn


def double_conv(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, 3, padding=1),
        nn.ReLU(inplace=True),
        nn.Conv2d(out_ch, out_ch, 3, padding=1),
        nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, depth=2, base=8, in_ch=1, n_classes=2):
        super().__init__()
        self.downs = nn.ModuleList()
        self.ups = nn.ModuleList()
        self.up_convs = nn.ModuleList()
        self.pool = nn.MaxPool2d(2)
        ch = in_ch
        chans = []
        for i in range(depth):
            out = base * 2 ** i
            self.downs.append(double_conv(ch, out))
            chans.append(out)
            ch = out
        self.bottleneck = double_conv(ch, ch * 2)
        ch = ch * 2
        for skip_ch in reversed(chans):
            self.ups.append(nn.ConvTranspose2d(ch, skip_ch, kernel_size=2, stride=2))
            self.up_convs.append(double_conv(skip_ch * 2, skip_ch))
            ch = skip_ch
        self.out = nn.Conv2d(ch, n_classes, 1)

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
            x = self.pool(x)
        x = self.bottleneck(x)
        for up, conv, skip in zip(self.ups, self.up_convs, reversed(skips)):
            x = up(x)
            x = torch.cat([skip, x], dim=1)
            x = conv(x)
        return self.out(x)


EXPERIMENTS = [
    {"image_size": 16, "depth": 2},
    {"image_size": 20, "depth": 2},
    {"image_size": 20, "depth": 3},
    {"image_size": 24, "depth": 3},
    {"image_size": 18, "depth": 1},
    {"image_size": 18, "depth": 2},
]


def run(image_size=16, depth=2):
    net = UNet(depth=depth)
    x = torch.randn(1, 1, image_size, image_size)
    return net(x)


def main():
    for exp in EXPERIMENTS:
        mask = run(image_size=exp["image_size"], depth=exp["depth"])
        print(exp, mask.shape)


if __name__ == "__main__":
    main()
