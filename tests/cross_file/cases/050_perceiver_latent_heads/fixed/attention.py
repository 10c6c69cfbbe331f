import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, query_dim, context_dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = query_dim // heads
        self.to_q = nn.Linear(query_dim, query_dim, bias=False)
        self.to_kv = nn.Linear(context_dim, 2 * query_dim, bias=False)
        self.to_out = nn.Linear(query_dim, query_dim)

    def split_heads(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.heads, self.head_dim).transpose(1, 2)

    def forward(self, x, context=None):
        context = x if context is None else context
        q = self.split_heads(self.to_q(x))
        k, v = (self.split_heads(t) for t in self.to_kv(context).chunk(2, dim=-1))
        attn = (q @ k.transpose(-2, -1)) * self.head_dim ** -0.5
        out = attn.softmax(dim=-1) @ v
        return self.to_out(out.transpose(1, 2).reshape(x.size(0), x.size(1), -1))


class FeedForward(nn.Sequential):
    def __init__(self, dim, mult=4):
        super().__init__(nn.LayerNorm(dim), nn.Linear(dim, dim * mult), nn.GELU(), nn.Linear(dim * mult, dim))
