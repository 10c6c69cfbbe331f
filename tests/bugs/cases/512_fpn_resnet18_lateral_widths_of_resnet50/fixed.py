import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet18


class FPNSegmenter(nn.Module):
    def __init__(self, n_classes=4, fpn_dim=64):
        super().__init__()
        net = resnet18(weights=None)
        self.stem = nn.Sequential(net.conv1, net.bn1, net.relu, net.maxpool)
        self.stages = nn.ModuleList([net.layer1, net.layer2, net.layer3, net.layer4])
        self.lateral = nn.ModuleList([nn.Conv2d(c, fpn_dim, 1) for c in (64, 128, 256, 512)])
        self.smooth = nn.Conv2d(fpn_dim, fpn_dim, 3, padding=1)
        self.classify = nn.Conv2d(fpn_dim, n_classes, 1)

    def forward(self, images):
        x = self.stem(images)
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        top = self.lateral[3](feats[3])
        for level in (2, 1, 0):
            lat = self.lateral[level](feats[level])
            top = lat + F.interpolate(top, size=lat.shape[-2:], mode="nearest")
        logits = self.classify(F.relu(self.smooth(top)))
        return F.interpolate(logits, size=images.shape[-2:], mode="bilinear", align_corners=False)
