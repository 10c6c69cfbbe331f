import torch
import torch.nn as nn

CFG = [32, "M", 64, "M", 128, 128, "M"]


def make_features(cfg, in_channels=3):
    layers = []
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
        else:
            layers += [nn.Conv2d(in_channels, v, kernel_size=3, padding=1), nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


class MiniVGG(nn.Module):
    """VGG-style classifier for 64x64 crops."""

    def __init__(self, num_classes=20):
        super().__init__()
        self.features = make_features(CFG)
        self.classifier = nn.Sequential(
            nn.Linear(128 * 8 * 8, 512),
            nn.ReLU(inplace=True),
            nn.Dropout(),
            nn.Linear(512, num_classes),
        )

    def forward(self, x):
        x = self.features(x)
        x = x.view(x.size(0), -1)
        return self.classifier(x)


if __name__ == "__main__":
    net = MiniVGG()
    crops = torch.randn(4, 3, 32, 32)
    scores = net(crops)
    print(scores.shape)
