import torch
import torch.nn as nn
import torch.nn.functional as F

from moe import TopKMoE, load_balance_loss


class MoELanguageModel(nn.Module):
    def __init__(self, vocab_size=1000, d_model=64, num_experts=8):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.norm = nn.LayerNorm(d_model)
        self.moe = TopKMoE(d_model, 4 * d_model, num_experts, k=2)
        self.out = nn.Linear(d_model, vocab_size)

    def forward(self, tokens):
        x = self.embed(tokens)
        y, gates = self.moe(self.norm(x))
        return self.out(x + y), gates


def main():
    torch.manual_seed(0)
    model = MoELanguageModel()
    tokens = torch.randint(0, 1000, (4, 33))
    logits, gates = model(tokens[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 1000), tokens[:, 1:].reshape(-1))
    loss = loss + 0.01 * load_balance_loss(gates)
    loss.backward()
    print(tuple(logits.shape), loss.item())


if __name__ == "__main__":
    main()
