import math

import torch
import torch.nn.functional as F


def rope_cache(seq_len, head_dim, base=10000.0):
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
    freqs = torch.outer(torch.arange(seq_len).float(), inv_freq)
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


def apply_rope(x, cos, sin):
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    rot_even = x_even * cos - x_odd * sin
    rot_odd = x_even * sin + x_odd * cos
    return torch.stack([rot_even, rot_odd], dim=-1).flatten(-2)


def causal_self_attention(x, params, n_heads, cos, sin):
    b, t, d = x.shape
    hd = d // n_heads
    q, k, v = (x @ params["w_qkv"]).split(d, dim=-1)
    q, k, v = (z.view(b, t, n_heads, hd).transpose(1, 2) for z in (q, k, v))
    q, k = apply_rope(q, cos[:t], sin[:t]), apply_rope(k, cos[:t], sin[:t])
    scores = q @ k.transpose(-2, -1) / math.sqrt(hd)
    causal = torch.ones(t, t, dtype=torch.bool).triu(1)
    attn = scores.masked_fill(causal, float("-inf")).softmax(dim=-1)
    out = (attn @ v).transpose(1, 2).reshape(b, t, d)
    return out @ params["w_out"]


def init_params(d_model):
    return {
        "w_qkv": torch.randn(d_model, 3 * d_model) / math.sqrt(d_model),
        "w_out": torch.randn(d_model, d_model) / math.sqrt(d_model),
    }


if __name__ == "__main__":
    cfg = {"d_model": 128, "n_heads": 4, "max_len": 256}
    params = init_params(cfg["d_model"])
    cos, sin = rope_cache(cfg["max_len"], cfg["d_model"] // cfg["n_heads"])
    x = torch.randn(2, 40, cfg["d_model"])
    y = x + causal_self_attention(F.layer_norm(x, (cfg["d_model"],)), params, cfg["n_heads"], cos, sin)
    print(y.shape)
