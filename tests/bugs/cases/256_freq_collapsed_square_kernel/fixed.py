import torch
import torch.nn as nn


class SpecFrontEnd(nn.Module):
    def __init__(self, n_classes=10, channels=32):
        super().__init__()
        self.conv2d = nn.Sequential(
            nn.Conv2d(1, channels, 3, padding=1),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(channels, channels * 2, 3, padding=1),
            nn.BatchNorm2d(channels * 2),
            nn.ReLU(),
        )
        self.temporal = nn.Sequential(
            nn.Conv2d(channels * 2, channels * 2, kernel_size=(1, 3), padding=(0, 1)),
            nn.BatchNorm2d(channels * 2),
            nn.ReLU(),
        )
        self.fc = nn.Linear(channels * 2, n_classes)

    def forward(self, spec):
        x = self.conv2d(spec.unsqueeze(1))
        x = x.mean(dim=2, keepdim=True)
        x = self.temporal(x)
        return self.fc(x.amax(dim=(2, 3)))
