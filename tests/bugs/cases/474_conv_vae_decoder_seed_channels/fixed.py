import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvVAE(nn.Module):
    def __init__(self, latent=16, width=32, seed=4, img_ch=1):
        super().__init__()
        self.width, self.seed = width, seed
        self.encoder = nn.Sequential(
            nn.Conv2d(img_ch, width, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(width, 2 * width, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(2 * width, 4 * width, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.to_stats = nn.Linear(4 * width, 2 * latent)
        self.from_z = nn.Linear(latent, 4 * width * seed * seed)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(4 * width, 2 * width, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(2 * width, width, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(width, img_ch, 4, 2, 1),
        )

    def decode(self, z):
        h = self.from_z(z)
        h = h.view(z.size(0), 4 * self.width, self.seed, self.seed)
        return self.decoder(h)

    def forward(self, x):
        mu, logvar = self.to_stats(self.encoder(x)).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decode(z), mu, logvar


def vae_loss(model, x):
    recon, mu, logvar = model(x)
    rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.size(0)
    kld = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
    return rec + kld
