import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=8, dim_head=64):
        super().__init__()
        inner = heads * dim_head
        context_dim = context_dim if context_dim is not None else query_dim
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_k = nn.Linear(context_dim, inner, bias=False)
        self.to_v = nn.Linear(context_dim, inner, bias=False)
        self.to_out = nn.Linear(inner, query_dim)

    def forward(self, x, context=None):
        context = x if context is None else context
        b, n, _ = x.shape
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        q, k, v = (t.view(b, t.size(1), self.heads, -1).transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v)
        return self.to_out(out.transpose(1, 2).reshape(b, n, -1))


class BasicTransformerBlock(nn.Module):
    def __init__(self, dim, heads, dim_head, context_dim=None):
        super().__init__()
        self.attn1 = CrossAttention(dim, heads=heads, dim_head=dim_head)
        self.attn2 = CrossAttention(dim, context_dim, heads=heads, dim_head=dim_head)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(3))

    def forward(self, x, context):
        x = x + self.attn1(self.norms[0](x))
        x = x + self.attn2(self.norms[1](x), context)
        return x + self.ff(self.norms[2](x))


class SpatialTransformer(nn.Module):
    def __init__(self, channels, heads, dim_head, context_dim=None, groups=32):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels, eps=1e-6)
        self.proj_in = nn.Conv2d(channels, heads * dim_head, 1)
        self.block = BasicTransformerBlock(heads * dim_head, heads, dim_head, context_dim)
        self.proj_out = nn.Conv2d(heads * dim_head, channels, 1)

    def forward(self, x, context):
        b, c, h, w = x.shape
        y = self.proj_in(self.norm(x)).flatten(2).transpose(1, 2)
        y = self.block(y, context)
        y = y.transpose(1, 2).reshape(b, -1, h, w)
        return x + self.proj_out(y)


if __name__ == "__main__":
    text_embeddings = torch.randn(2, 77, 768)
    latents = torch.randn(2, 320, 32, 32)
    block = SpatialTransformer(320, heads=8, dim_head=40, context_dim=768)
    with torch.no_grad():
        out = block(latents, text_embeddings)
    print(out.shape)
