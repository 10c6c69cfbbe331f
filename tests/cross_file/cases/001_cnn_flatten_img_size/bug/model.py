import torch
import torch.nn as nn
import torch.nn.functional as F

from config import CHANNELS, IMG_SIZE, IN_CHANNELS, NUM_CLASSES


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        c1, c2 = CHANNELS
        self.conv1 = nn.Conv2d(IN_CHANNELS, c1, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(c1, c2, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2)
        feat = IMG_SIZE // 4
        self.fc1 = nn.Linear(c2 * feat * feat, 128)
        self.fc2 = nn.Linear(128, NUM_CLASSES)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)
