import torch
import torch.nn as nn


class FeedForward(nn.Sequential):
    def __init__(self, dim, mult=4):
        super().__init__(nn.LayerNorm(dim), nn.Linear(dim, dim * mult), nn.GELU(), nn.Linear(dim * mult, dim))


class PerceiverEncoder(nn.Module):
    def __init__(self, input_dim, num_latents=64, latent_dim=256, depth=2):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim) * 0.02)
        self.norm_latents = nn.LayerNorm(latent_dim)
        self.norm_inputs = nn.LayerNorm(input_dim)
        self.to_q = nn.Linear(latent_dim, latent_dim, bias=False)
        self.to_kv = nn.Linear(input_dim, 2 * latent_dim, bias=False)
        self.to_out = nn.Linear(latent_dim, latent_dim)
        self.scale = latent_dim ** -0.5
        self.blocks = nn.ModuleList([FeedForward(latent_dim) for _ in range(depth)])

    def forward(self, inputs):
        b = inputs.shape[0]
        x = self.latents.unsqueeze(0).expand(b, -1, -1)
        k, v = self.to_kv(self.norm_inputs(inputs)).chunk(2, dim=-1)
        q = self.to_q(self.norm_latents(x))
        attn = (torch.einsum("bnd,bmd->bnm", q, k) * self.scale).softmax(dim=-1)
        x = x + self.to_out(torch.einsum("bnm,bmd->bnd", attn, v))
        for block in self.blocks:
            x = x + block(x)
        return x.mean(dim=1)
