import torch
import torch.nn as nn


def causal_mask(n):
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)


class ResidueLM(nn.Module):
    def __init__(self, n_tokens=25, d_model=64, heads=4, layers=2, max_len=512):
        super().__init__()
        self.tok = nn.Embedding(n_tokens, d_model)
        self.pos = nn.Parameter(torch.zeros(max_len, d_model))
        layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=4 * d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.out = nn.Linear(d_model, n_tokens)

    def forward(self, residues):
        length = residues.size(1)
        h = self.tok(residues) + self.pos[:length]
        h = h
        h = self.encoder(h, mask=causal_mask(length))
        return self.out(h)


def lm_loss(model, residues):
    logits = model(residues[:, :-1])
    return nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), residues[:, 1:].reshape(-1))


if __name__ == "__main__":
    model = ResidueLM()
    batch = torch.randint(0, 25, (8, 51))
    loss = lm_loss(model, batch)
    loss.backward()
    print(loss.item())
