import torch.nn as nn


def stage(in_ch, out_ch):
    return nn.Sequential(nn.Conv2d(in_ch, out_ch, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))


class DeepCNN(nn.Module):
    def __init__(self, in_channels, num_classes, widths=(16, 32, 64, 128, 256)):
        super().__init__()
        blocks, prev = [], in_channels
        for w in widths:
            blocks.append(stage(prev, w))
            prev = w
        self.features = nn.Sequential(*blocks)
        self.classifier = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(prev, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))
