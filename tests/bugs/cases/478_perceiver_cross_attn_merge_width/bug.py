import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim, heads=8, dim_head=16):
        super().__init__()
        self.heads, self.dim_head = heads, dim_head
        inner = heads * dim_head
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_kv = nn.Linear(context_dim, 2 * inner, bias=False)
        self.to_out = nn.Linear(inner, query_dim)

    def split(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.heads, self.dim_head).transpose(1, 2)

    def forward(self, latents, context):
        b, n, d = latents.shape
        q = self.split(self.to_q(latents))
        k, v = (self.split(t) for t in self.to_kv(context).chunk(2, dim=-1))
        attn = F.softmax(q @ k.transpose(-1, -2) / self.dim_head ** 0.5, dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, n, d)
        return self.to_out(out)


class PerceiverEncoder(nn.Module):
    def __init__(self, input_dim, latent_dim=96, n_latents=32):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(n_latents, latent_dim) * 0.02)
        self.cross = CrossAttention(latent_dim, input_dim)
        self.ff = nn.Sequential(nn.LayerNorm(latent_dim), nn.Linear(latent_dim, 4 * latent_dim), nn.GELU(),
                                nn.Linear(4 * latent_dim, latent_dim))

    def forward(self, tokens):
        lat = self.latents.expand(tokens.size(0), -1, -1)
        lat = lat + self.cross(lat, tokens)
        return lat + self.ff(lat)


if __name__ == "__main__":
    encoder = PerceiverEncoder(input_dim=40)
    frames = torch.randn(4, 500, 40)
    print(encoder(frames).shape)
