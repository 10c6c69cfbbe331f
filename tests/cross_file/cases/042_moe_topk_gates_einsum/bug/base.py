import torch
import torch.nn as nn


class Expert(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, x):
        return self.net(x)


class MoEBase(nn.Module):
    def __init__(self, d_model, d_ff, num_experts):
        super().__init__()
        self.num_experts = num_experts
        self.gate = nn.Linear(d_model, num_experts, bias=False)
        self.experts = nn.ModuleList(Expert(d_model, d_ff) for _ in range(num_experts))

    def route(self, logits):
        return logits.softmax(dim=-1)

    def combine(self, gates, expert_out):
        return torch.einsum("bte,bted->btd", gates, expert_out)

    def forward(self, x):
        gates = self.route(self.gate(x))
        expert_out = torch.stack([expert(x) for expert in self.experts], dim=2)
        return self.combine(gates, expert_out), gates
