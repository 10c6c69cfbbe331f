import torch.nn as nn

from base import BaseClassifier


class SmallCNN(BaseClassifier):
    def build_features(self):
        return nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(2),
        )

    def feature_dim(self):
        return 64 * 2 * 2
