import torch
import torch.nn as nn


class NeuralCF(nn.Module):
    """Neural collaborative filtering: MLP over concatenated user and item embeddings."""

    def __init__(self, n_users, n_items, emb_dim=32, layers=(64, 32, 16)):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, emb_dim)
        self.item_emb = nn.Embedding(n_items, emb_dim)
        mlp = []
        in_dim = 2 * emb_dim
        for width in layers:
            mlp += [nn.Linear(in_dim, width), nn.ReLU()]
            in_dim = width
        self.mlp = nn.Sequential(*mlp)
        self.out = nn.Linear(in_dim, 1)

    def forward(self, user_ids, item_ids):
        x = torch.cat([self.user_emb(user_ids), self.item_emb(item_ids)], dim=-1)
        return torch.sigmoid(self.out(self.mlp(x))).squeeze(-1)
