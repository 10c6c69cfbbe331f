import torch
import torch.nn as nn
import torch.nn.functional as F


class ConcatPoolHead(nn.Module):
    """fastai-style head: concatenated average and max pooling, then a small MLP."""

    def __init__(self, in_channels, n_classes, hidden=512, p=0.25):
        super().__init__()
        self.drop = nn.Dropout(p)
        self.fc1 = nn.Linear(2 * in_channels, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, feats):
        pooled = F.adaptive_avg_pool2d(feats, 1)
        x = self.drop(pooled.flatten(1))
        return self.fc2(self.drop(F.relu(self.fc1(x))))


class Classifier(nn.Module):
    def __init__(self, n_classes=10, width=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, stride=2, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(),
        )
        self.head = ConcatPoolHead(2 * width, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))
