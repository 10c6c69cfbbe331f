import torch
import torch.nn as nn


def conv_bn(in_ch, out_ch, stride=1):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel_size=3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )


class ChestXrayNet(nn.Module):
    def __init__(self, in_channels=3, num_classes=2, width=16):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(in_channels, width, stride=2),
            conv_bn(width, 2 * width, stride=2),
            conv_bn(2 * width, 4 * width, stride=2),
            conv_bn(4 * width, 8 * width, stride=2),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(8 * width, num_classes)

    def forward(self, x):
        x = self.pool(self.features(x)).flatten(1)
        return self.head(x)


def load_scans(n, size=128):
    return [torch.rand(size, size) for _ in range(n)]


if __name__ == "__main__":
    model = ChestXrayNet(in_channels=1, num_classes=14)
    scans = load_scans(4)
    batch = torch.stack(scans).unsqueeze(1)
    batch = (batch - 0.5) / 0.25
    logits = model(batch)
    probs = torch.sigmoid(logits)
    print(probs.shape)
