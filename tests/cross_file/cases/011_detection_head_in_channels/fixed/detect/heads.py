import torch.nn as nn


class DetectionHead(nn.Module):
    def __init__(self, in_channels, num_anchors, num_classes):
        super().__init__()
        self.num_anchors = num_anchors
        self.num_classes = num_classes
        self.cls = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)
        self.box = nn.Conv2d(in_channels, num_anchors * 4, 3, padding=1)

    def forward(self, feats):
        n, _, h, w = feats.shape
        cls = self.cls(feats).view(n, self.num_anchors, self.num_classes, h, w)
        box = self.box(feats).view(n, self.num_anchors, 4, h, w)
        return cls, box
