import torch
import torch.nn as nn
import torch.nn.functional as F


def stage(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyFPN(nn.Module):
    def __init__(self, in_ch=4, widths=(32, 64, 128), out_ch=64, n_classes=6):
        super().__init__()
        chans = (in_ch,) + tuple(widths)
        self.stages = nn.ModuleList(stage(a, b) for a, b in zip(chans[:-1], chans[1:]))
        self.lateral = nn.ModuleList(nn.Conv2d(w, out_ch, 1) for w in widths)
        self.head = nn.Conv2d(out_ch, n_classes, 3, padding=1)

    def merge(self, top, lateral):
        up = F.interpolate(top, scale_factor=2, mode="nearest")
        dh = lateral.size(2) - up.size(2)
        dw = lateral.size(3) - up.size(3)
        up = F.pad(up, (0, dh, 0, dw))
        return up + lateral

    def forward(self, tile):
        feats = []
        x = tile
        for s in self.stages:
            x = s(x)
            feats.append(x)
        top = self.lateral[-1](feats[-1])
        for lat_conv, f in zip(reversed(self.lateral[:-1]), reversed(feats[:-1])):
            top = self.merge(top, lat_conv(f))
        logits = self.head(top)
        return F.interpolate(logits, size=tile.shape[-2:], mode="bilinear", align_corners=False)


if __name__ == "__main__":
    model = TinyFPN()
    tiles = torch.randn(2, 4, 100, 128)
    labels = torch.randint(0, 6, (2, 100, 128))
    loss = F.cross_entropy(model(tiles), labels)
    loss.backward()
    print(loss.item())
