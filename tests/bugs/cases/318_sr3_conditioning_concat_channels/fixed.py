import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoidal(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half) / half)
    args = t.float()[:, None] * freqs[None, :]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class Block(nn.Module):
    def __init__(self, cin, cout, temb_dim):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.norm = nn.GroupNorm(8, cout)
        self.temb = nn.Linear(temb_dim, cout)

    def forward(self, x, temb):
        h = F.silu(self.conv1(x)) + self.temb(temb)[:, :, None, None]
        return F.silu(self.norm(self.conv2(h)))


class SR3Denoiser(nn.Module):
    def __init__(self, img_ch=3, base=32, temb_dim=128):
        super().__init__()
        self.temb_dim = temb_dim
        self.conv_in = nn.Conv2d(2 * img_ch, base, 3, padding=1)
        self.enc1 = Block(base, base, temb_dim)
        self.enc2 = Block(base, 2 * base, temb_dim)
        self.dec1 = Block(3 * base, base, temb_dim)
        self.conv_out = nn.Conv2d(base, img_ch, 3, padding=1)

    def forward(self, x_t, lowres_up, t):
        temb = sinusoidal(t, self.temb_dim)
        h0 = self.conv_in(torch.cat([x_t, lowres_up], dim=1))
        h1 = self.enc1(h0, temb)
        h2 = self.enc2(F.avg_pool2d(h1, 2), temb)
        u = F.interpolate(h2, scale_factor=2, mode="nearest")
        return self.conv_out(self.dec1(torch.cat([u, h1], dim=1), temb))


if __name__ == "__main__":
    betas = torch.linspace(1e-4, 0.02, 1000)
    alpha_bar = torch.cumprod(1 - betas, dim=0)
    hr = torch.rand(4, 3, 64, 64) * 2 - 1
    lr_up = F.interpolate(F.avg_pool2d(hr, 4), scale_factor=4, mode="bicubic", align_corners=False)
    t = torch.randint(0, 1000, (4,))
    noise = torch.randn_like(hr)
    a = alpha_bar[t].view(-1, 1, 1, 1)
    x_t = a.sqrt() * hr + (1 - a).sqrt() * noise
    model = SR3Denoiser()
    loss = F.mse_loss(model(x_t, lr_up, t), noise)
    loss.backward()
    print(loss.item())
