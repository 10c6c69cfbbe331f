import torch
import torch.nn as nn


class ConvSequenceEncoder(nn.Module):
    """1-D CNN over token embeddings, max-pooled over time, then projected to a shared space."""

    def __init__(self, vocab_size, emb_dim=128, channels=256, out_dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb_dim)
        self.conv1 = nn.Conv1d(emb_dim, channels, 5, padding=2)
        self.conv2 = nn.Conv1d(channels, channels, 5, padding=2)
        self.proj = nn.Linear(channels, out_dim)

    def forward(self, tokens):
        x = self.emb(tokens).transpose(1, 2)
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = torch.max(x, dim=2).values
        return self.proj(x.transpose(1, 2))
