import torch
import torch.nn as nn


class AgentInteraction(nn.Module):
    num_heads = 4

    def __init__(self, d_model=128, radius=50.0, dropout=0.1):
        super().__init__()
        self.radius = radius
        self.embed = nn.Sequential(nn.Linear(5, d_model), nn.ReLU(), nn.Linear(d_model, d_model))
        self.attn = nn.MultiheadAttention(d_model, self.num_heads, dropout=dropout, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, states, valid):
        n = states.shape[1]
        pos = states[..., :2]
        dist = torch.cdist(pos, pos)
        mask = (dist > self.radius) | ~valid[:, None, :]
        mask = mask & ~torch.eye(n, dtype=torch.bool)
        x = self.embed(states)
        h, _ = self.attn(x, x, x, attn_mask=mask.repeat_interleave(self.num_heads, dim=0))
        x = self.norm1(x + h)
        return self.norm2(x + self.ffn(x))
