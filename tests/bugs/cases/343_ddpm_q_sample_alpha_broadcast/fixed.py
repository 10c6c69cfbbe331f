import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_beta_schedule(timesteps, s=0.008):
    steps = torch.arange(timesteps + 1, dtype=torch.float64) / timesteps
    alphas_bar = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    alphas_bar = alphas_bar / alphas_bar[0]
    betas = 1 - alphas_bar[1:] / alphas_bar[:-1]
    return betas.clamp(max=0.999).float()


class Diffusion:
    def __init__(self, timesteps=1000):
        self.timesteps = timesteps
        self.betas = cosine_beta_schedule(timesteps)
        alphas_bar = torch.cumprod(1.0 - self.betas, dim=0)
        self.sqrt_ab = alphas_bar.sqrt()
        self.sqrt_1m_ab = (1.0 - alphas_bar).sqrt()

    def q_sample(self, x0, t, noise):
        a = self.sqrt_ab[t].view(-1, 1, 1, 1)
        s = self.sqrt_1m_ab[t].view(-1, 1, 1, 1)
        return a * x0 + s * noise


class TinyDenoiser(nn.Module):
    def __init__(self, ch=3, width=64, t_dim=128):
        super().__init__()
        self.t_mlp = nn.Sequential(nn.Linear(t_dim, width), nn.SiLU(), nn.Linear(width, width))
        self.inp = nn.Conv2d(ch, width, 3, padding=1)
        self.mid = nn.Conv2d(width, width, 3, padding=1)
        self.out = nn.Conv2d(width, ch, 3, padding=1)
        self.t_dim = t_dim

    def forward(self, x, t):
        half = self.t_dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half) / half)
        emb = torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], dim=1)
        h = F.silu(self.inp(x)) + self.t_mlp(emb)[:, :, None, None]
        return self.out(F.silu(self.mid(h)))


def train_step(model, diffusion, x0, opt):
    t = torch.randint(0, diffusion.timesteps, (x0.size(0),))
    noise = torch.randn_like(x0)
    x_t = diffusion.q_sample(x0, t, noise)
    loss = F.mse_loss(model(x_t, t.float()), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    diffusion = Diffusion(1000)
    model = TinyDenoiser()
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    images = torch.rand(16, 3, 32, 32) * 2 - 1
    print(train_step(model, diffusion, images, opt))
