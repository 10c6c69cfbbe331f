import torch
import torch.nn as nn


class Conv3DStem(nn.Module):
    """Clips arrive as [batch, time, channels, height, width] from the data loader."""

    def __init__(self, in_ch=3, width=32, num_classes=400):
        super().__init__()
        self.conv = nn.Conv3d(in_ch, width, kernel_size=(3, 7, 7), stride=(1, 2, 2), padding=(1, 3, 3))
        self.bn = nn.BatchNorm3d(width)
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(width, num_classes)

    def forward(self, clip):
        x = clip.permute(0, 2, 1, 3)
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(self.pool(x).flatten(1))
