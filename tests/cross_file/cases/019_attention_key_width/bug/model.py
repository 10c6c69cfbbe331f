import torch.nn as nn

import attention


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim // 2)
        self.v = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, -1).transpose(1, 2)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
        y = attention.scaled_dot_product(q, k, v, attention.causal_mask(t))
        return self.out(y.transpose(1, 2).reshape(b, t, d))
