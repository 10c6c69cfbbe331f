import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, dim, context_dim, heads=8, dim_head=64):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.dim_head = dim_head
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(context_dim, inner * 2, bias=False)
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x, context):
        b, n, _ = x.shape
        _, m, _ = context.shape
        q = self.to_q(x).view(b, n, self.heads, self.dim_head).transpose(1, 2)
        kv = self.to_kv(context).view(b, m, 2, self.heads, self.dim_head)
        k, v = kv.permute(2, 0, 3, 1, 4)
        attn = torch.matmul(q, k.transpose(-1, -2)) * self.dim_head ** -0.5
        out = torch.matmul(attn.softmax(dim=-1), v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)


class LatentBlock(nn.Module):
    def __init__(self, num_latents, dim, context_dim, heads=8):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, dim) * 0.02)
        self.norm_ctx = nn.LayerNorm(context_dim)
        self.cross = CrossAttention(dim, context_dim, heads=heads)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))

    def forward(self, context):
        x = self.latents.unsqueeze(0).expand(context.shape[0], -1, -1)
        x = x + self.cross(x, self.norm_ctx(context))
        return x + self.ff(x)
