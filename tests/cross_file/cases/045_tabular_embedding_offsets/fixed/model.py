import torch
import torch.nn as nn

from features import column_offsets


class TabularEmbeddingNet(nn.Module):
    def __init__(self, cards, num_numeric, emb_dim=8, hidden=64, num_classes=2):
        super().__init__()
        self.register_buffer("offsets", column_offsets(cards))
        self.embed = nn.Embedding(sum(cards), emb_dim)
        self.num_norm = nn.BatchNorm1d(num_numeric)
        in_dim = len(cards) * emb_dim + num_numeric
        self.mlp = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, num_classes),
        )

    def forward(self, x_cat, x_num):
        emb = self.embed(x_cat + self.offsets).flatten(1)
        return self.mlp(torch.cat([emb, self.num_norm(x_num)], dim=1))
