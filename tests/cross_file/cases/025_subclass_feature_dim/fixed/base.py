import torch
import torch.nn as nn


class BaseClassifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.features = self.build_features()
        self.classifier = nn.Linear(self.feature_dim(), num_classes)

    def build_features(self):
        raise NotImplementedError

    def feature_dim(self):
        raise NotImplementedError

    def forward(self, x):
        x = torch.flatten(self.features(x), 1)
        return self.classifier(x)
