import math
import torch
import torch.nn as nn


def sinusoid_table(max_len, dim):
    pos = torch.arange(max_len).unsqueeze(1)
    div = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
    table = torch.zeros(max_len, dim)
    table[:, 0::2] = torch.sin(pos * div)
    table[:, 1::2] = torch.cos(pos * div[: dim // 2])
    return table


class ConcatPositionEncoder(nn.Module):
    """Concatenates (rather than adds) a fixed positional code to every token."""

    def __init__(self, d_in, d_pos=16, d_model=128, max_len=512):
        super().__init__()
        self.register_buffer("pos", sinusoid_table(max_len, d_pos))
        self.proj = nn.Linear(d_in + d_pos, d_model)

    def forward(self, x):
        b, t, _ = x.shape
        pos = self.pos[:t].unsqueeze(0).expand(b, -1, -1)
        return self.proj(torch.cat([x, pos], dim=-1))
