import torch
import torch.nn as nn


class LocalSelfAttention(nn.Module):
    def __init__(self, dim, num_heads, window):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.rel_bias = nn.Embedding(2 * window - 1, num_heads)
        coords = torch.arange(window)
        rel = coords[None, :] - coords[:, None] + window
        self.register_buffer("rel_index", rel, persistent=False)

    def forward(self, x):
        b, n, d = x.shape
        bias = self.rel_bias(self.rel_index).permute(2, 0, 1)
        qkv = self.qkv(x).view(b, n, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        out = attn.softmax(dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(b, n, d))


class WindowBlock(nn.Module):
    def __init__(self, dim=64, num_heads=4, window=16):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = LocalSelfAttention(dim, num_heads, window)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))
