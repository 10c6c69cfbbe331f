import torch
import torch.nn as nn


def conv_block(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv3d(in_ch, out_ch, kernel_size=3, padding=1, bias=False),
        nn.InstanceNorm3d(out_ch, affine=True),
        nn.LeakyReLU(0.01, inplace=True),
    )


class VolumeClassifier(nn.Module):
    def __init__(self, in_channels=1, base=16, num_classes=2):
        super().__init__()
        self.features = nn.Sequential(
            conv_block(in_channels, base),
            nn.MaxPool3d(2),
            conv_block(base, base * 2),
            nn.MaxPool3d(2),
            conv_block(base * 2, base * 4),
            nn.AdaptiveAvgPool3d(1),
        )
        self.head = nn.Linear(base * 4, num_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def load_case(depth=16, size=32):
    t1 = torch.randn(depth, size, size)
    t2 = torch.randn(depth, size, size)
    t1 = (t1 - t1.mean()) / t1.std()
    t2 = (t2 - t2.mean()) / t2.std()
    return torch.stack([t1, t2], dim=0)


if __name__ == "__main__":
    model = VolumeClassifier(in_channels=2)
    batch = torch.stack([load_case() for _ in range(2)])
    print(model(batch).shape)
