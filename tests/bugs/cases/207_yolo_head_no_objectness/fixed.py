import torch
import torch.nn as nn


class DetectionHead(nn.Module):
    def __init__(self, in_channels=(128, 256, 512), num_classes=80, num_anchors=3):
        super().__init__()
        self.na = num_anchors
        self.no = num_classes + 5
        self.convs = nn.ModuleList(
            nn.Conv2d(c, self.na * (num_classes + 5), kernel_size=1) for c in in_channels
        )

    def forward(self, features):
        outputs = []
        for x, conv in zip(features, self.convs):
            b, _, h, w = x.shape
            p = conv(x).view(b, self.na, self.no, h, w)
            p = p.permute(0, 1, 3, 4, 2).contiguous()
            outputs.append(p.view(b, -1, self.no))
        return torch.cat(outputs, dim=1)

    @staticmethod
    def split(pred):
        boxes = pred[..., :4]
        objectness = pred[..., 4:5].sigmoid()
        class_probs = pred[..., 5:].sigmoid()
        return boxes, objectness, class_probs
