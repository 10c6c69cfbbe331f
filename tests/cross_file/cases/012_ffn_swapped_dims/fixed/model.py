import torch.nn as nn

import nn_lib.layers as L


class EncoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.ffn = L.Residual(d_model, L.FeedForward(d_model, d_ff))

    def forward(self, x):
        h = self.norm(x)
        x = x + self.attn(h, h, h)[0]
        return self.ffn(x)


class Encoder(nn.Module):
    def __init__(self, d_model=128, n_heads=4, d_ff=512, depth=2):
        super().__init__()
        self.blocks = nn.ModuleList(EncoderBlock(d_model, n_heads, d_ff) for _ in range(depth))

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return x
