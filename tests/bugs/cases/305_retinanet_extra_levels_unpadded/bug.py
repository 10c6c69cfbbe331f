import torch
import torch.nn as nn
import torch.nn.functional as F


def stage(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyRetinaNet(nn.Module):
    def __init__(self, num_classes, num_anchors=9, widths=(32, 64, 128, 256, 512), fpn_ch=64, extra_levels=2):
        super().__init__()
        self.stages = nn.ModuleList()
        in_ch = 3
        for w in widths:
            self.stages.append(stage(in_ch, w))
            in_ch = w
        self.lateral = nn.ModuleList([nn.Conv2d(c, fpn_ch, 1) for c in widths[-3:]])
        self.smooth = nn.ModuleList([nn.Conv2d(fpn_ch, fpn_ch, 3, padding=1) for _ in widths[-3:]])
        self.extra = nn.ModuleList()
        for i in range(extra_levels):
            self.extra.append(nn.Conv2d(widths[-1] if i == 0 else fpn_ch, fpn_ch, 3, stride=2))
        self.cls_head = nn.Conv2d(fpn_ch, num_anchors * num_classes, 3, padding=1)
        self.box_head = nn.Conv2d(fpn_ch, num_anchors * 4, 3, padding=1)
        self.num_classes = num_classes

    def forward(self, images):
        feats, x = [], images
        for s in self.stages:
            x = s(x)
            feats.append(x)
        c3, c4, c5 = feats[-3:]
        p5 = self.lateral[2](c5)
        p4 = self.lateral[1](c4) + F.interpolate(p5, size=c4.shape[-2:], mode="nearest")
        p3 = self.lateral[0](c3) + F.interpolate(p4, size=c3.shape[-2:], mode="nearest")
        pyramid = [self.smooth[0](p3), self.smooth[1](p4), self.smooth[2](p5)]
        p = c5
        for i, conv in enumerate(self.extra):
            p = conv(p if i == 0 else F.relu(p))
            pyramid.append(p)
        b = images.size(0)
        cls = torch.cat([self.cls_head(f).permute(0, 2, 3, 1).reshape(b, -1, self.num_classes) for f in pyramid], 1)
        box = torch.cat([self.box_head(f).permute(0, 2, 3, 1).reshape(b, -1, 4) for f in pyramid], 1)
        return cls, box


if __name__ == "__main__":
    model = TinyRetinaNet(num_classes=3)
    images = torch.randn(2, 3, 128, 128)
    cls_logits, box_deltas = model(images)
    print(cls_logits.shape, box_deltas.shape)
