import torch
import torch.nn as nn


class LineRecognizer(nn.Module):
    """Collapses image height first, then keeps pooling along the width (sequence) axis only."""

    def __init__(self, in_ch=1, width=64, n_classes=80):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.seq_conv = nn.Sequential(
            nn.Conv2d(width, width, (1, 3), padding=(0, 1)), nn.ReLU(),
            nn.MaxPool2d((1, 2)),
            nn.Conv2d(width, 2 * width, (1, 3), padding=(0, 1)), nn.ReLU(),
        )
        self.fc = nn.Linear(2 * width, n_classes)

    def forward(self, img):
        x = self.stem(img)
        x = x.mean(dim=2, keepdim=True)
        x = self.seq_conv(x)
        return self.fc(x.squeeze(2).transpose(1, 2))
