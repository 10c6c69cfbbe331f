import math

import torch
import torch.nn as nn
import torch.nn.functional as F

NORM_GROUPS = 8


def timestep_embedding(t, dim, max_period=10000.0):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = torch.outer(t.float(), freqs)
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, in_ch, out_ch, temb_dim, dropout=0.1):
        super().__init__()
        self.norm1 = nn.GroupNorm(NORM_GROUPS, in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.temb_proj = nn.Linear(temb_dim, out_ch)
        self.norm2 = nn.GroupNorm(NORM_GROUPS, out_ch)
        self.dropout = nn.Dropout(dropout)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1)
        self.skip = nn.Conv2d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(self.dropout(F.silu(self.norm2(h))))
        return h + self.skip(x)


class TinyUNet(nn.Module):
    def __init__(self, img_ch=3, base=64, temb_dim=256):
        super().__init__()
        self.base = base
        self.time_mlp = nn.Sequential(nn.Linear(base, temb_dim), nn.SiLU(), nn.Linear(temb_dim, temb_dim))
        self.conv_in = nn.Conv2d(img_ch, base, 3, padding=1)
        self.down1 = ResBlock(base, base, temb_dim)
        self.down2 = ResBlock(base, 2 * base, temb_dim)
        self.mid = ResBlock(2 * base, 2 * base, temb_dim)
        self.up2 = ResBlock(4 * base, base, temb_dim)
        self.up1 = ResBlock(2 * base, base, temb_dim)
        self.out = nn.Sequential(nn.GroupNorm(NORM_GROUPS, base), nn.SiLU(), nn.Conv2d(base, img_ch, 3, padding=1))

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.base))
        h0 = self.conv_in(x)
        h1 = self.down1(h0, temb)
        h2 = self.down2(F.avg_pool2d(h1, 2), temb)
        m = self.mid(h2, temb)
        u = self.up2(torch.cat([m, h2], dim=1), temb)
        u = F.interpolate(u, size=h1.shape[-2:], mode="nearest")
        u = self.up1(torch.cat([u, h1], dim=1), temb)
        return self.out(u)


def diffusion_loss(model, x0, alphas_cumprod):
    t = torch.randint(0, alphas_cumprod.numel(), (x0.size(0),))
    a = alphas_cumprod[t].view(-1, 1, 1, 1)
    noise = torch.randn_like(x0)
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    return F.mse_loss(model(x_t, t), noise)
