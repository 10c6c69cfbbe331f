import math
import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    """Single-head cross-attention from latent queries to a context sequence (Perceiver-style)."""

    def __init__(self, query_dim, context_dim, dim=None):
        super().__init__()
        dim = dim or query_dim
        self.to_q = nn.Linear(query_dim, dim, bias=False)
        self.to_k = nn.Linear(context_dim, context_dim, bias=False)
        self.to_v = nn.Linear(context_dim, dim, bias=False)
        self.to_out = nn.Linear(dim, query_dim)
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, latents, context):
        q = self.to_q(latents)
        k, v = self.to_k(context), self.to_v(context)
        sim = torch.einsum("bid,bjd->bij", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        return self.to_out(torch.einsum("bij,bjd->bid", attn, v))


class PerceiverEncoder(nn.Module):
    def __init__(self, input_dim=512, latent_dim=256, n_latents=32):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(n_latents, latent_dim) * 0.02)
        self.cross = CrossAttention(latent_dim, input_dim)
        self.norm = nn.LayerNorm(latent_dim)

    def forward(self, inputs):
        lat = self.latents.unsqueeze(0).expand(inputs.size(0), -1, -1)
        return self.norm(lat + self.cross(lat, inputs))


if __name__ == "__main__":
    enc = PerceiverEncoder()
    pixels = torch.randn(2, 100, 512)
    print(enc(pixels).shape)
