import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, latent_dim, input_dim, heads=4, dim_head=32, dropout=0.0):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.norm_latents = nn.LayerNorm(latent_dim)
        self.norm_inputs = nn.LayerNorm(input_dim)
        self.to_q = nn.Linear(latent_dim, inner, bias=False)
        self.to_kv = nn.Linear(input_dim, 2 * inner, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner, latent_dim), nn.Dropout(dropout))

    def split_heads(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.heads, -1).transpose(1, 2)

    def forward(self, latents, inputs):
        b, n, _ = latents.shape
        q = self.split_heads(self.to_q(self.norm_latents(latents)))
        k, v = self.to_kv(self.norm_inputs(inputs)).chunk(2, dim=-1)
        k, v = self.split_heads(k), self.split_heads(v)
        attn = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        attn = attn.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)


class PerceiverClassifier(nn.Module):
    def __init__(self, input_dim, num_latents=64, latent_dim=256, heads=4, dim_head=32, num_classes=10):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim) * 0.02)
        self.cross = CrossAttention(latent_dim, input_dim, heads, dim_head)
        self.ff = nn.Sequential(
            nn.LayerNorm(latent_dim), nn.Linear(latent_dim, 4 * latent_dim), nn.GELU(),
            nn.Linear(4 * latent_dim, latent_dim),
        )
        self.head = nn.Sequential(nn.LayerNorm(latent_dim), nn.Linear(latent_dim, num_classes))

    def forward(self, x):
        lat = self.latents.unsqueeze(0).expand(x.size(0), -1, -1)
        lat = lat + self.cross(lat, x)
        lat = lat + self.ff(lat)
        return self.head(lat.mean(dim=1))
