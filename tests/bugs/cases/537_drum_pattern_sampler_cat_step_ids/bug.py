import torch
import torch.nn as nn


class DrumPatternRNN(nn.Module):
    def __init__(self, n_patterns=64, emb=32, hidden=128, context_dim=16):
        super().__init__()
        self.n_patterns = n_patterns
        self.embed = nn.Embedding(n_patterns, emb)
        self.style = nn.Linear(context_dim, hidden)
        self.cell = nn.GRUCell(emb, hidden)
        self.head = nn.Linear(hidden, n_patterns)

    @torch.no_grad()
    def generate(self, style_vec, steps=16, start=0):
        h = torch.tanh(self.style(style_vec))
        current = torch.full((style_vec.size(0),), start, dtype=torch.long)
        hits = []
        for _ in range(steps):
            h = self.cell(self.embed(current), h)
            current = self.head(h).max(dim=-1).indices
            hits.append(current)
        return torch.cat(hits, dim=1)
