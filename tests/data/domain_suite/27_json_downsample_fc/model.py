import json
import os

import torch
import torch.nn as nn


class StridedEncoder(nn.Module):
    def __init__(self, image_size=32, num_downsample=2, channels=16, num_classes=10):
        super().__init__()
        layers = [nn.Conv2d(1, channels, 3, padding=1), nn.ReLU()]
        for _ in range(num_downsample):
            layers += [nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.ReLU()]
        self.encoder = nn.Sequential(*layers)
        final_size = image_size // 2 ** num_downsample
        self.fc = nn.Linear(channels * final_size * final_size, num_classes)

    def forward(self, x):
        x = self.encoder(x)
        x = x.view(x.size(0), -1)
        return self.fc(x)


def run(image_size=32, num_downsample=2):
    model = StridedEncoder(image_size=image_size, num_downsample=num_downsample)
    x = torch.randn(2, 1, image_size, image_size)
    return model(x)


def main():
    with open(os.path.join(os.path.dirname(__file__), "config.json")) as f:
        cfg = json.load(f)
    for image_size in cfg["image_size"]:
        for n in cfg["num_downsample"]:
            logits = run(image_size=image_size, num_downsample=n)
            print(image_size, n, logits.shape)


if __name__ == "__main__":
    main()
