import torch
import torch.nn as nn
import torch.nn.functional as F


def down(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel_size=3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )


class MultiScaleFusionNet(nn.Module):
    def __init__(self, num_classes=21, width=16, fuse_ch=64):
        super().__init__()
        chans = [width * 2 ** i for i in range(5)]
        self.stages = nn.ModuleList()
        in_ch = 3
        for c in chans:
            self.stages.append(down(in_ch, c))
            in_ch = c
        self.lateral = nn.ModuleList(nn.Conv2d(c, fuse_ch, kernel_size=1) for c in chans[2:])
        self.fuse = nn.Conv2d(3 * fuse_ch, fuse_ch, kernel_size=3, padding=1)
        self.classifier = nn.Conv2d(fuse_ch, num_classes, kernel_size=1)

    def forward(self, x):
        size = x.shape[-2:]
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        c3, c4, c5 = [lat(f) for lat, f in zip(self.lateral, feats[2:])]
        c4 = F.interpolate(c4, scale_factor=2, mode="nearest")
        c5 = F.interpolate(c5, scale_factor=4, mode="nearest")
        fused = F.relu(self.fuse(torch.cat([c3, c4, c5], dim=1)))
        logits = self.classifier(fused)
        return F.interpolate(logits, size=size, mode="bilinear", align_corners=False)


if __name__ == "__main__":
    model = MultiScaleFusionNet()
    images = torch.randn(2, 3, 128, 128)
    print(model(images).shape)
