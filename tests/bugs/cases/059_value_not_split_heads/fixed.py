import math
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model=128, n_heads=4, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def split_heads(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, query, key, value, mask=None):
        b, t, d = query.shape
        q = self.split_heads(self.w_q(query))
        k = self.split_heads(self.w_k(key))
        v = self.split_heads(self.w_v(value))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        attn = self.dropout(torch.softmax(scores, dim=-1))
        ctx = (attn @ v).transpose(1, 2).contiguous().view(b, t, d)
        return self.w_o(ctx)


if __name__ == "__main__":
    mha = MultiHeadAttention()
    src = torch.randn(2, 10, 128)
    causal = torch.tril(torch.ones(10, 10, dtype=torch.bool))
    print(mha(src, src, src, mask=causal).shape)
