import math
import torch
import torch.nn as nn


def squeeze2d(x):
    b, c, h, w = x.shape
    x = x.view(b, c, h // 2, 2, w // 2, 2)
    x = x.permute(0, 1, 3, 5, 2, 4).contiguous()
    return x.view(b, c * 2, h // 2, w // 2)


def unsqueeze2d(x):
    b, c, h, w = x.shape
    x = x.view(b, c // 4, 2, 2, h, w)
    x = x.permute(0, 1, 4, 2, 5, 3).contiguous()
    return x.view(b, c // 4, h * 2, w * 2)


class ActNorm(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, channels, 1, 1))
        self.log_scale = nn.Parameter(torch.zeros(1, channels, 1, 1))

    def forward(self, x):
        h, w = x.shape[2:]
        return (x + self.loc) * self.log_scale.exp(), h * w * self.log_scale.sum()


class AffineCoupling(nn.Module):
    def __init__(self, channels, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(channels // 2, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 1), nn.ReLU(),
            nn.Conv2d(hidden, channels, 3, padding=1),
        )

    def forward(self, x):
        xa, xb = x.chunk(2, dim=1)
        log_s, t = self.net(xa).chunk(2, dim=1)
        s = torch.sigmoid(log_s + 2.0)
        yb = (xb + t) * s
        return torch.cat([xa, yb], dim=1), torch.log(s).flatten(1).sum(-1)


def flow_nll(x, hidden=64, n_bits=5):
    z = squeeze2d(x - 0.5)
    c = z.size(1)
    actnorm, coupling = ActNorm(c), AffineCoupling(c, hidden)
    z, ld_an = actnorm(z)
    z, ld_cp = coupling(z)
    log_pz = (-0.5 * (z ** 2 + math.log(2 * math.pi))).flatten(1).sum(-1)
    n_pixels = x[0].numel()
    log_px = log_pz + ld_an + ld_cp - n_pixels * math.log(2 ** n_bits)
    return (-log_px / (n_pixels * math.log(2))).mean()
