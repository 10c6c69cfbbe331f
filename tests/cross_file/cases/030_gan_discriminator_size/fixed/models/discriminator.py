import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self, in_ch=3, img_size=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_ch, 64, 4, 2, 1),
            nn.LeakyReLU(0.2, True),
            nn.Conv2d(64, 128, 4, 2, 1),
            nn.LeakyReLU(0.2, True),
            nn.Conv2d(128, 256, 4, 2, 1),
            nn.LeakyReLU(0.2, True),
        )
        self.fc = nn.Linear(256 * (img_size // 8) ** 2, 1)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))
