"""A classifier that is fine on its own, called on a batch with the wrong feature count."""

import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, features=64, classes=10):
        super().__init__()
        self.hidden = nn.Linear(features, 128)
        self.out = nn.Linear(128, classes)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


model = Classifier(features=64)
batch = torch.randn(16, 32)
logits = model(batch)
