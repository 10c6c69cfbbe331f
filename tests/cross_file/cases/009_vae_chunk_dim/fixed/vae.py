import torch.nn as nn

from base import BaseVAE


class ConvVAE(BaseVAE):
    def __init__(self, latent_dim=16):
        super().__init__(in_dim=28 * 28, hidden_dim=256, latent_dim=latent_dim)
        self.fc = nn.Linear(latent_dim, 32 * 7 * 7)
        self.deconv = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1),
            nn.ReLU(),
            nn.ConvTranspose2d(16, 1, 4, stride=2, padding=1),
        )

    def decode(self, z):
        h = self.fc(z).view(-1, 32, 7, 7)
        return self.deconv(h)
