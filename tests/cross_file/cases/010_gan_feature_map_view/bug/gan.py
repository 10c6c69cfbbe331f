import torch.nn as nn

from utils import to_feature_map, upsample_block


class Generator(nn.Module):
    def __init__(self, latent_dim=64, base=128):
        super().__init__()
        self.base = base
        self.fc = nn.Linear(latent_dim, base * 7 * 7)
        self.up = nn.Sequential(
            upsample_block(base, base // 2),
            nn.ConvTranspose2d(base // 2, 1, kernel_size=4, stride=2, padding=1),
            nn.Tanh(),
        )

    def forward(self, z):
        h = to_feature_map(self.fc(z), self.base, 8)
        return self.up(h)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 64, 4, stride=2, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(64, 128, 4, stride=2, padding=1),
            nn.LeakyReLU(0.2),
            nn.Flatten(),
            nn.Linear(128 * 7 * 7, 1),
        )

    def forward(self, x):
        return self.net(x)
