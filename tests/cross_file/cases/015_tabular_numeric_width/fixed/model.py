import torch
import torch.nn as nn

from config import TabularConfig


class TabularNet(nn.Module):
    def __init__(self, cfg: TabularConfig):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(card, cfg.emb_dim) for card in cfg.cat_cardinalities)
        in_dim = cfg.num_numeric + cfg.emb_dim * len(cfg.cat_cardinalities)
        self.mlp = nn.Sequential(
            nn.Linear(in_dim, cfg.hidden),
            nn.ReLU(),
            nn.Linear(cfg.hidden, cfg.num_classes),
        )

    def forward(self, numeric, categorical):
        embs = [emb(categorical[:, i]) for i, emb in enumerate(self.embeddings)]
        x = torch.cat([numeric] + embs, dim=1)
        return self.mlp(x)
