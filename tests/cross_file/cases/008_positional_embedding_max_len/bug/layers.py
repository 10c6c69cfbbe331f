import torch
import torch.nn as nn

__all__ = ["TokenEmbedding", "LearnedPositionalEmbedding"]


class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.scale = dim ** 0.5

    def forward(self, tokens):
        return self.emb(tokens) * self.scale


class LearnedPositionalEmbedding(nn.Module):
    def __init__(self, max_len, dim):
        super().__init__()
        self.emb = nn.Embedding(max_len, dim)

    def forward(self, x):
        positions = torch.arange(x.size(1), device=x.device)
        return x + self.emb(positions).unsqueeze(0)
