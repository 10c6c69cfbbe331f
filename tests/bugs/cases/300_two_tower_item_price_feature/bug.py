import torch
import torch.nn as nn
import torch.nn.functional as F


class UserTower(nn.Module):
    def __init__(self, n_users, n_items, dim, out_dim):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.history = nn.EmbeddingBag(n_items, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, out_dim))

    def forward(self, user_ids, hist_items, hist_offsets):
        feats = torch.cat([self.user_emb(user_ids), self.history(hist_items, hist_offsets)], dim=-1)
        return F.normalize(self.mlp(feats), dim=-1)


class ItemTower(nn.Module):
    def __init__(self, n_items, n_tags, dim, out_dim):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim)
        self.tags = nn.EmbeddingBag(n_tags, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, out_dim))

    def forward(self, item_ids, tag_ids, tag_offsets, log_price):
        feats = torch.cat(
            [self.item_emb(item_ids), self.tags(tag_ids, tag_offsets), log_price.unsqueeze(-1)], dim=-1
        )
        return F.normalize(self.mlp(feats), dim=-1)


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, n_tags, dim=64, out_dim=32, temperature=0.05):
        super().__init__()
        self.user_tower = UserTower(n_users, n_items, dim, out_dim)
        self.item_tower = ItemTower(n_items, n_tags, dim, out_dim)
        self.temperature = temperature

    def forward(self, users, hist, hist_offsets, items, tags, tag_offsets, log_price):
        u = self.user_tower(users, hist, hist_offsets)
        v = self.item_tower(items, tags, tag_offsets, log_price)
        logits = u @ v.t() / self.temperature
        return F.cross_entropy(logits, torch.arange(u.size(0)))
