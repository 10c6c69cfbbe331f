import math

import torch
import torch.nn as nn

from masks import causal_mask, padding_mask


class Attention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.kv = nn.Linear(d_model, 2 * d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, x, mem, mask):
        b, t, _ = x.shape
        q = self.q(x).view(b, t, self.h, self.dk).transpose(1, 2)
        k, v = self.kv(mem).view(b, mem.size(1), 2, self.h, self.dk).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dk)
        scores = scores.masked_fill(mask.unsqueeze(1), float("-inf"))
        out = scores.softmax(dim=-1) @ v
        return self.o(out.transpose(1, 2).reshape(b, t, -1))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.self_attn = Attention(d_model, n_heads)
        self.cross_attn = Attention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(3))

    def forward(self, x, memory, self_mask, cross_mask):
        h = self.norms[0](x)
        x = x + self.self_attn(h, h, self_mask)
        x = x + self.cross_attn(self.norms[1](x), memory, cross_mask)
        return x + self.ff(self.norms[2](x))


class Decoder(nn.Module):
    def __init__(self, vocab_size, d_model=128, n_heads=4, n_layers=2, max_len=64, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(DecoderLayer(d_model, n_heads, 4 * d_model) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, vocab_size)

    def forward(self, tgt, memory, src_tokens):
        t = tgt.size(1)
        self_mask = causal_mask(t, tgt.device) | padding_mask(tgt, self.pad_id)
        cross_mask = padding_mask(src_tokens, self.pad_id)
        x = self.embed(tgt) + self.pos(torch.arange(t, device=tgt.device))
        for layer in self.layers:
            x = layer(x, memory, self_mask, cross_mask)
        return self.out(self.norm(x))
