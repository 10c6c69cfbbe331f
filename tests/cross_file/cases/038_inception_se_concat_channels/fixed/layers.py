import torch
import torch.nn as nn

__all__ = ["ConvBNReLU", "SqueezeExcite"]


class ConvBNReLU(nn.Sequential):
    def __init__(self, in_ch, out_ch, kernel=1, stride=1):
        super().__init__(
            nn.Conv2d(in_ch, out_ch, kernel, stride, kernel // 2, bias=False),
            nn.BatchNorm2d(out_ch),
            nn.ReLU(inplace=True),
        )


class SqueezeExcite(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        hidden = max(8, channels // reduction)
        self.fc1 = nn.Conv2d(channels, hidden, 1)
        self.fc2 = nn.Conv2d(hidden, channels, 1)

    def forward(self, x):
        s = x.mean(dim=(2, 3), keepdim=True)
        s = self.fc2(torch.relu(self.fc1(s)))
        return x * torch.sigmoid(s)
