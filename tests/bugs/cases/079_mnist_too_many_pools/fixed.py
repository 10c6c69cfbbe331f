import torch
import torch.nn as nn


class DeepMNIST(nn.Module):
    def __init__(self, n_blocks=4, width=32, n_classes=10):
        super().__init__()
        blocks = []
        in_ch = 1
        for i in range(n_blocks):
            out_ch = width * 2 ** min(i, 2)
            blocks += [
                nn.Conv2d(in_ch, out_ch, 3, padding=1),
                nn.BatchNorm2d(out_ch),
                nn.ReLU(inplace=True),
                nn.MaxPool2d(2),
            ]
            in_ch = out_ch
        self.features = nn.Sequential(*blocks)
        self.classifier = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(in_ch, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


if __name__ == "__main__":
    model = DeepMNIST()
    digits = torch.randn(8, 1, 28, 28)
    print(model(digits).shape)
