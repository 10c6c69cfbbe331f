import torch
import torch.nn as nn
import torch.nn.functional as F


class SwitchFFN(nn.Module):
    def __init__(self, d_model, d_ff, n_experts, jitter=0.01):
        super().__init__()
        self.n_experts = n_experts
        self.jitter = jitter
        self.router = nn.Linear(d_model, n_experts, bias=False)
        self.experts = nn.ModuleList([
            nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
            for _ in range(n_experts)
        ])

    def forward(self, x):
        b, t, d = x.shape
        tokens = x.reshape(-1, d)
        if self.training and self.jitter > 0:
            tokens = tokens * torch.empty_like(tokens).uniform_(1 - self.jitter, 1 + self.jitter)
        probs = torch.softmax(self.router(tokens), dim=-1)
        gate, expert_idx = probs.max(dim=-1)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            sel = expert_idx == e
            if sel.any():
                out[sel] = gate[sel, None] * expert(tokens[sel])
        frac_tokens = F.one_hot(expert_idx, self.n_experts).float().mean(dim=0)
        frac_probs = probs.mean(dim=0)
        aux_loss = self.n_experts * torch.sum(frac_tokens * frac_probs)
        return out.view(b, t, d), aux_loss


class MoEBlock(nn.Module):
    def __init__(self, d_model=128, n_heads=4, n_experts=8):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.moe = SwitchFFN(d_model, 4 * d_model, n_experts)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        y, aux = self.moe(self.ln2(x))
        return x + y, aux


if __name__ == "__main__":
    block = MoEBlock()
    x = torch.randn(2, 32, 128)
    y, aux = block(x)
    loss = y.pow(2).mean() + 0.01 * aux
    loss.backward()
    print(loss.item())
