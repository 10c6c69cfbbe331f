import torch
import torch.nn as nn


class RGBDNet(nn.Module):
    """Early fusion of an RGB image and an aligned depth map."""

    def __init__(self, num_classes=13):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(4, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.body = nn.Sequential(
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.classifier = nn.Conv2d(64, num_classes, 1)

    def forward(self, rgb, depth):
        x = torch.cat([rgb, depth], dim=1)
        x = self.body(self.stem(x))
        return self.classifier(x)


if __name__ == "__main__":
    model = RGBDNet()
    rgb = torch.rand(2, 3, 64, 64)
    depth = torch.rand(2, 1, 48, 64) * 10.0
    seg = model(rgb, depth)
    print(seg.shape)
