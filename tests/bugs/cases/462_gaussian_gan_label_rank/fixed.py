import torch
import torch.nn as nn


class Sampler(nn.Module):
    def __init__(self, noise_dim, out_dim, width=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(noise_dim, width), nn.Tanh(),
            nn.Linear(width, width), nn.Tanh(),
            nn.Linear(width, out_dim),
        )
        self.noise_dim = noise_dim

    def forward(self, n):
        return self.net(torch.randn(n, self.noise_dim))


class Critic(nn.Module):
    def __init__(self, in_dim, width=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, width), nn.LeakyReLU(0.2), nn.Linear(width, 1))

    def forward(self, x):
        return torch.sigmoid(self.body(x))


def real_batch(n, dim, mean=3.0, std=0.5):
    return mean + std * torch.randn(n, dim)


def train_step(sampler, critic, opt_s, opt_c, batch):
    bce = nn.BCELoss()
    real = real_batch(batch, sampler.net[-1].out_features)
    fake = sampler(batch)
    ones, zeros = torch.ones(batch, 1), torch.zeros(batch, 1)

    opt_c.zero_grad()
    d_loss = bce(critic(real), ones) + bce(critic(fake.detach()), zeros)
    d_loss.backward()
    opt_c.step()

    opt_s.zero_grad()
    g_loss = bce(critic(fake), ones)
    g_loss.backward()
    opt_s.step()
    return d_loss.item(), g_loss.item()


def fit(noise_dim, data_dim, batch, steps=2):
    sampler, critic = Sampler(noise_dim, data_dim), Critic(data_dim)
    opt_s = torch.optim.Adam(sampler.parameters(), lr=1e-3)
    opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3)
    history = [train_step(sampler, critic, opt_s, opt_c, batch) for _ in range(steps)]
    return history
