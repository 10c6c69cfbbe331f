import torch
import torch.nn as nn


class TabularNet(nn.Module):
    """Entity embeddings for categorical columns + raw continuous columns -> MLP."""

    def __init__(self, cardinalities, n_continuous, hidden=(128, 64), out_dim=1, emb_dropout=0.05):
        super().__init__()
        emb_dims = [min(50, (card + 1) // 2) for card in cardinalities]
        self.embeds = nn.ModuleList([nn.Embedding(card, dim) for card, dim in zip(cardinalities, emb_dims)])
        self.emb_drop = nn.Dropout(emb_dropout)
        self.bn_cont = nn.BatchNorm1d(n_continuous)
        layers = []
        in_dim = sum(emb_dims)
        for h in hidden:
            layers += [nn.Linear(in_dim, h), nn.ReLU(inplace=True), nn.BatchNorm1d(h)]
            in_dim = h
        layers.append(nn.Linear(in_dim, out_dim))
        self.mlp = nn.Sequential(*layers)

    def forward(self, x_cat, x_cont):
        embs = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeds)]
        x = self.emb_drop(torch.cat(embs, dim=1))
        x = torch.cat([x, self.bn_cont(x_cont)], dim=1)
        return self.mlp(x)
