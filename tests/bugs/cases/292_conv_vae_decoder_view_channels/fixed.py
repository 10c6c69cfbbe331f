import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvVAE(nn.Module):
    def __init__(self, in_ch=1, base=32, latent_dim=16):
        super().__init__()
        self.base = base
        self.encoder = nn.Sequential(
            nn.Conv2d(in_ch, base, 4, stride=2, padding=1), nn.BatchNorm2d(base), nn.LeakyReLU(0.2),
            nn.Conv2d(base, 2 * base, 4, stride=2, padding=1), nn.BatchNorm2d(2 * base), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(4),
        )
        self.to_stats = nn.Linear(2 * base * 16, 2 * latent_dim)
        self.from_latent = nn.Linear(latent_dim, 2 * base * 16)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(2 * base, base, 4, stride=2, padding=1), nn.BatchNorm2d(base), nn.ReLU(),
            nn.ConvTranspose2d(base, in_ch, 4, stride=2, padding=1),
        )

    def encode(self, x):
        h = self.encoder(x).flatten(1)
        mu, logvar = self.to_stats(h).chunk(2, dim=-1)
        return mu, logvar

    def reparameterize(self, mu, logvar):
        return mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)

    def decode(self, z, out_size):
        b = z.size(0)
        h = F.relu(self.from_latent(z)).view(b, 2 * self.base, 4, 4)
        return F.interpolate(self.decoder(h), size=out_size, mode="bilinear", align_corners=False)

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar)
        return self.decode(z, x.shape[-2:]), mu, logvar


def vae_loss(model, x, beta=1.0):
    recon, mu, logvar = model(x)
    rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return rec + beta * kl
