import torch
import torch.nn as nn
import torch.nn.functional as F


class RoadSegmenter(nn.Module):
    def __init__(self, n_classes=5, width=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.BatchNorm2d(width * 2), nn.ReLU(),
        )
        self.classifier = nn.Conv2d(width * 2, n_classes, 1)

    def forward(self, images):
        b, _, h, w = images.shape
        return self.classifier(self.encoder(images))


def segmentation_loss(model, images, masks):
    logits = model(images)
    small = F.interpolate(masks.unsqueeze(1).float(), size=logits.shape[-2:], mode="nearest").long()
    return F.cross_entropy(logits, small, ignore_index=255)
