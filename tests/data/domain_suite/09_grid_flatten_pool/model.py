import torch
import torch.nn as nn
import torch.nn.functional as F


class MnistNet(nn.Module):
    def __init__(self, pool="max", num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        if pool == "max":
            self.pool2 = nn.MaxPool2d(2)
        else:
            self.pool2 = nn.AdaptiveAvgPool2d(7)
        self.fc1 = nn.Linear(32 * 7 * 7, 64)
        self.fc2 = nn.Linear(64, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = self.pool2(F.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


CONFIGS = [
    {"image_size": 28, "pool": "max"},
    {"image_size": 32, "pool": "max"},
    {"image_size": 56, "pool": "max"},
    {"image_size": 28, "pool": "adaptive"},
    {"image_size": 32, "pool": "adaptive"},
    {"image_size": 56, "pool": "adaptive"},
]


def run(image_size=28, pool="max"):
    model = MnistNet(pool=pool)
    x = torch.randn(2, 1, image_size, image_size)
    return model(x)


def main():
    for cfg in CONFIGS:
        out = run(**cfg)
        print(cfg, tuple(out.shape))


if __name__ == "__main__":
    main()
