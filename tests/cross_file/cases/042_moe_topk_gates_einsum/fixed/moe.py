import torch

from base import MoEBase


class TopKMoE(MoEBase):
    def __init__(self, d_model, d_ff, num_experts, k=2):
        super().__init__(d_model, d_ff, num_experts)
        self.k = k

    def route(self, logits):
        top_vals, top_idx = logits.topk(self.k, dim=-1)
        weights = top_vals.softmax(dim=-1)
        return torch.zeros_like(logits).scatter(-1, top_idx, weights)


def load_balance_loss(gates):
    importance = gates.mean(dim=(0, 1))
    load = (gates > 0).float().mean(dim=(0, 1))
    return gates.size(-1) * (importance * load).sum()
