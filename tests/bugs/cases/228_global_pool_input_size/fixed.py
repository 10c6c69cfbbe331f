import torch
import torch.nn as nn
import torch.nn.functional as F


class TextureEncoder(nn.Module):
    def __init__(self, in_channels=3, width=64, out_dim=128):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, width, kernel_size=3)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm2d(width)
        self.fc = nn.Linear(width, out_dim)

    def gram(self, x):
        b, c, h, w = x.shape
        f = x.flatten(2)
        return torch.bmm(f, f.transpose(1, 2)) / (h * w)

    def forward(self, x, return_gram=False):
        b, c, h, w = x.shape
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        if return_gram:
            return self.gram(x)
        x = F.max_pool2d(x, kernel_size=x.shape[-2:])
        return F.normalize(self.fc(x.flatten(1)), dim=1)
