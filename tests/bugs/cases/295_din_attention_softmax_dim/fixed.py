import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivationUnit(nn.Module):
    def __init__(self, dim, hidden=36):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(4 * dim, hidden), nn.PReLU(), nn.Linear(hidden, 1))

    def forward(self, query, history, mask):
        b, t, d = history.shape
        q = query.unsqueeze(1).expand(b, t, d)
        feats = torch.cat([q, history, q - history, q * history], dim=-1)
        scores = self.mlp(feats).squeeze(-1)
        scores = scores.masked_fill(~mask, -1e9)
        weights = torch.softmax(scores, dim=1)
        return torch.bmm(weights.unsqueeze(1), history).squeeze(1)


class DeepInterestNet(nn.Module):
    def __init__(self, n_items, n_cats, dim=16, mlp_dims=(200, 80)):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim, padding_idx=0)
        self.cat_emb = nn.Embedding(n_cats, dim, padding_idx=0)
        self.attention = ActivationUnit(2 * dim)
        layers, in_dim = [], 4 * dim
        for h in mlp_dims:
            layers += [nn.Linear(in_dim, h), nn.PReLU()]
            in_dim = h
        layers.append(nn.Linear(in_dim, 1))
        self.mlp = nn.Sequential(*layers)

    def embed(self, items, cats):
        return torch.cat([self.item_emb(items), self.cat_emb(cats)], dim=-1)

    def forward(self, hist_items, hist_cats, target_item, target_cat):
        history = self.embed(hist_items, hist_cats)
        target = self.embed(target_item, target_cat)
        mask = hist_items != 0
        interest = self.attention(target, history, mask)
        return self.mlp(torch.cat([interest, target], dim=-1)).squeeze(-1)


def ctr_loss(model, batch):
    logits = model(batch["hist_items"], batch["hist_cats"], batch["item"], batch["cat"])
    return F.binary_cross_entropy_with_logits(logits, batch["clicked"].float())
