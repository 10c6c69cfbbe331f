import torch
import torch.nn as nn
import torch.nn.functional as F


class CVAE(nn.Module):
    def __init__(self, x_dim=784, n_classes=10, hidden=256, latent=20):
        super().__init__()
        self.n_classes = n_classes
        self.enc = nn.Linear(x_dim + n_classes, hidden)
        self.mu = nn.Linear(hidden, latent)
        self.logvar = nn.Linear(hidden, latent)
        self.dec1 = nn.Linear(latent, hidden)
        self.dec2 = nn.Linear(hidden, x_dim)

    def encode(self, x, c):
        h = F.relu(self.enc(torch.cat([x, c], dim=1)))
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z, c):
        h = F.relu(self.dec1(torch.cat([z, c], dim=1)))
        return torch.sigmoid(self.dec2(h))

    def forward(self, x, y):
        c = F.one_hot(y, self.n_classes).float()
        mu, logvar = self.encode(x.view(x.size(0), -1), c)
        z = self.reparameterize(mu, logvar)
        return self.decode(z, c), mu, logvar
