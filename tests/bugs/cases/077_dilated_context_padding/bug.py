import torch
import torch.nn as nn


class DilatedLayer(nn.Module):
    def __init__(self, channels, dilation, kernel_size=3, dropout=0.1):
        super().__init__()
        pad = (kernel_size - 1) // 2
        self.conv = nn.Conv1d(channels, channels, kernel_size, padding=pad, dilation=dilation)
        self.norm = nn.BatchNorm1d(channels)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(torch.relu(self.norm(self.conv(x))))


class ContextNet(nn.Module):
    """Stack of dilated convolutions with exponentially growing receptive field."""

    def __init__(self, in_ch=8, channels=32, n_levels=6, n_classes=5):
        super().__init__()
        self.inp = nn.Conv1d(in_ch, channels, 1)
        self.layers = nn.Sequential(*[DilatedLayer(channels, 2 ** i) for i in range(n_levels)])
        self.fc = nn.Linear(channels, n_classes)

    def forward(self, x):
        h = self.layers(self.inp(x))
        return self.fc(h.mean(dim=-1))


if __name__ == "__main__":
    model = ContextNet()
    sensor = torch.randn(4, 8, 40)
    print(model(sensor).shape)
