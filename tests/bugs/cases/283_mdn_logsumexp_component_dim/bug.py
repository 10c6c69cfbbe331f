import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MixtureDensityHead(nn.Module):
    def __init__(self, in_dim, out_dim, n_components=5):
        super().__init__()
        self.k = n_components
        self.d = out_dim
        self.pi = nn.Linear(in_dim, n_components)
        self.mu = nn.Linear(in_dim, n_components * out_dim)
        self.log_sigma = nn.Linear(in_dim, n_components * out_dim)

    def forward(self, h):
        log_pi = F.log_softmax(self.pi(h), dim=-1)
        mu = self.mu(h).view(-1, self.k, self.d)
        sigma = self.log_sigma(h).clamp(-7, 7).exp().view(-1, self.k, self.d)
        return log_pi, mu, sigma

    def nll(self, h, y):
        log_pi, mu, sigma = self(h)
        z = (y.unsqueeze(1) - mu) / sigma
        log_prob = -0.5 * (z ** 2 + 2 * sigma.log() + math.log(2 * math.pi)).sum(dim=-1)
        return -torch.logsumexp(log_pi + log_prob, dim=2).mean()


class MDNRegressor(nn.Module):
    def __init__(self, in_dim, out_dim, hidden=64, n_components=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.head = MixtureDensityHead(hidden, out_dim, n_components)

    def forward(self, x):
        return self.head(self.backbone(x))

    def loss(self, x, y):
        return self.head.nll(self.backbone(x), y)
