import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseLayer(nn.Module):
    def __init__(self, in_channels, growth_rate, bn_size=4, drop_rate=0.0):
        super().__init__()
        self.norm1 = nn.BatchNorm2d(in_channels)
        self.conv1 = nn.Conv2d(in_channels, bn_size * growth_rate, kernel_size=1, bias=False)
        self.norm2 = nn.BatchNorm2d(bn_size * growth_rate)
        self.conv2 = nn.Conv2d(bn_size * growth_rate, growth_rate, kernel_size=3, padding=1, bias=False)
        self.drop_rate = drop_rate

    def forward(self, x):
        out = self.conv1(F.relu(self.norm1(x)))
        out = self.conv2(F.relu(self.norm2(out)))
        if self.drop_rate > 0:
            out = F.dropout(out, p=self.drop_rate, training=self.training)
        return torch.cat([x, out], dim=1)


class DenseBlock(nn.Module):
    def __init__(self, num_layers, in_channels, growth_rate):
        super().__init__()
        self.layers = nn.ModuleList()
        for i in range(num_layers):
            self.layers.append(DenseLayer(in_channels + (i + 1) * growth_rate, growth_rate))
        self.out_channels = in_channels + num_layers * growth_rate

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class TinyDenseNet(nn.Module):
    def __init__(self, in_channels=3, growth_rate=12, num_layers=4, num_classes=10):
        super().__init__()
        stem_channels = 2 * growth_rate
        self.stem = nn.Conv2d(in_channels, stem_channels, kernel_size=3, padding=1, bias=False)
        self.block = DenseBlock(num_layers, stem_channels, growth_rate)
        self.norm = nn.BatchNorm2d(self.block.out_channels)
        self.classifier = nn.Linear(self.block.out_channels, num_classes)

    def forward(self, x):
        x = self.block(self.stem(x))
        x = F.relu(self.norm(x))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.classifier(x)
