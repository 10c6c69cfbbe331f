import torch
import torch.nn as nn
import torch.nn.functional as F


class NeuralCF(nn.Module):
    def __init__(self, n_users, n_items, emb_dim=32, layers=(64, 32, 16), dropout=0.1):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, emb_dim)
        self.item_emb = nn.Embedding(n_items, emb_dim)
        mlp, d = [], 2 * emb_dim
        for h in layers:
            mlp += [nn.Linear(d, h), nn.ReLU(), nn.Dropout(dropout)]
            d = h
        self.mlp = nn.Sequential(*mlp)
        self.gmf_out = nn.Linear(emb_dim, 1, bias=False)
        self.mlp_out = nn.Linear(d, 1)
        nn.init.normal_(self.user_emb.weight, std=0.01)
        nn.init.normal_(self.item_emb.weight, std=0.01)

    def forward(self, users, items):
        u, i = self.user_emb(users), self.item_emb(items)
        gmf = self.gmf_out(u * i)
        deep = self.mlp_out(self.mlp(torch.cat([u, i], dim=-1)))
        return gmf + deep


def sample_negatives(pos_items, n_items):
    neg = torch.randint(0, n_items - 1, pos_items.shape)
    return neg + (neg >= pos_items).long()


def pairwise_hinge_loss(model, users, pos_items, neg_items, margin=0.5):
    pos = model(users, pos_items)
    neg = model(users, neg_items)
    target = torch.ones_like(pos)
    return F.margin_ranking_loss(pos, neg, target, margin=margin)


def train_epoch(model, interactions, n_items, opt, batch_size=256):
    perm = torch.randperm(interactions.size(0))
    total = 0.0
    for start in range(0, len(perm), batch_size):
        batch = interactions[perm[start : start + batch_size]]
        users, pos_items = batch[:, 0], batch[:, 1]
        loss = pairwise_hinge_loss(model, users, pos_items, sample_negatives(pos_items, n_items))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total
