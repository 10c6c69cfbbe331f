import math
import torch
import torch.nn as nn


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ConditionalDenoiser(nn.Module):
    def __init__(self, data_dim, num_classes, hidden=256, time_dim=64):
        super().__init__()
        self.num_classes = num_classes
        self.time_dim = time_dim
        self.class_embed = nn.Embedding(num_classes + 1, hidden)
        self.time_mlp = nn.Sequential(nn.Linear(time_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.inp = nn.Linear(data_dim, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.out = nn.Linear(hidden, data_dim)

    def forward(self, x, t, y):
        temb = self.time_mlp(timestep_embedding(t, self.time_dim))
        cond = temb + self.class_embed(y)
        h = self.inp(x) + cond
        return self.out(self.body(h))

    @torch.no_grad()
    def guided(self, x, t, y, scale=3.0):
        null = torch.full_like(y, self.num_classes)
        x2, t2, y2 = torch.cat([x, x]), torch.cat([t, t]), torch.cat([y, null])
        cond_eps, uncond_eps = self(x2, t2, y2).chunk(2)
        return uncond_eps + scale * (cond_eps - uncond_eps)
