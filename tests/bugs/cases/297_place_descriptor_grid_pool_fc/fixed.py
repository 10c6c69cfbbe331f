import torch
import torch.nn as nn
import torch.nn.functional as F

GRID = 4


def conv_bn(cin, cout, stride):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class PlaceDescriptor(nn.Module):
    def __init__(self, width=32, desc_dim=256):
        super().__init__()
        self.backbone = nn.Sequential(
            conv_bn(3, width, 2),
            conv_bn(width, 2 * width, 2),
            conv_bn(2 * width, 4 * width, 2),
            conv_bn(4 * width, 4 * width, 1),
        )
        self.pool = nn.AdaptiveAvgPool2d(GRID)
        self.proj = nn.Linear(4 * width * GRID * GRID, desc_dim)

    def forward(self, img):
        f = self.pool(self.backbone(img))
        d = self.proj(f.flatten(1))
        return F.normalize(d, dim=-1)


def triplet_step(model, anchor, positive, negative, margin=0.1):
    a, p, n = model(anchor), model(positive), model(negative)
    d_ap = (a - p).pow(2).sum(dim=-1)
    d_an = (a - n).pow(2).sum(dim=-1)
    return F.relu(d_ap - d_an + margin).mean()
