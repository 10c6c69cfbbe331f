import math
import torch
import torch.nn as nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x, pad_mask):
        """x: [B, T, D]; pad_mask: [B, T] with True at padding positions."""
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.d_k).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        scores = scores.masked_fill(pad_mask, float("-inf"))
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, D)
        return self.proj(out)


if __name__ == "__main__":
    layer = MultiHeadSelfAttention()
    x = torch.randn(3, 12, 64)
    lengths = torch.tensor([12, 9, 5])
    pad_mask = torch.arange(12)[None, :] >= lengths[:, None]
    print(layer(x, pad_mask).shape)
