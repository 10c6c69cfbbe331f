import torch
import torch.nn as nn


class PatchDiscriminator(nn.Module):
    """Scores 16x16 patches as real/fake."""

    def __init__(self, in_ch=3, width=32, depth=3):
        super().__init__()
        layers = []
        ch = in_ch
        for i in range(depth):
            layers += [nn.Conv2d(ch, width * 2 ** i, kernel_size=5, padding=2), nn.LeakyReLU(0.2)]
            ch = width * 2 ** i
        self.features = nn.Sequential(*layers)
        self.head = nn.Conv2d(ch, 1, kernel_size=5)

    def forward(self, x):
        return self.head(self.features(x)).mean(dim=(1, 2, 3))


if __name__ == "__main__":
    disc = PatchDiscriminator()
    patches = torch.randn(8, 3, 16, 16)
    print(disc(patches).shape)
