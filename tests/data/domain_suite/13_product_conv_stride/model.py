import itertools

import torch
import torch.nn as nn


class StridedConvClassifier(nn.Module):
    def __init__(self, kernel_size=3, stride=1, image_size=16, channels=16, num_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, channels, kernel_size, stride=stride, padding=kernel_size // 2)
        self.act = nn.ReLU()
        feat_size = image_size // stride
        self.fc = nn.Linear(channels * feat_size * feat_size, num_classes)

    def forward(self, x):
        x = self.act(self.conv(x))
        return self.fc(x.flatten(1))


def run(kernel_size=3, stride=1, image_size=16):
    model = StridedConvClassifier(kernel_size=kernel_size, stride=stride, image_size=image_size)
    x = torch.randn(2, 3, image_size, image_size)
    return model(x)


def main():
    for kernel_size, stride, image_size in itertools.product([3, 4, 5], [1, 2, 3], [14, 15, 16]):
        out = run(kernel_size=kernel_size, stride=stride, image_size=image_size)
        print(f"k={kernel_size} s={stride} img={image_size}: {tuple(out.shape)}")


if __name__ == "__main__":
    main()
