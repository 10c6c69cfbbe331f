import torch.nn as nn


class MLPClassifier(nn.Module):
    def __init__(self, in_features, num_classes=10, hidden=256):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.fc2 = nn.Linear(hidden, num_classes)
        self.act = nn.ReLU()

    def forward(self, x):
        x = x.flatten(1)
        x = self.act(self.fc1(x))
        return self.fc2(x)
