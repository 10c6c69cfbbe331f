import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedResidualNetwork(nn.Module):
    def __init__(self, in_dim, hidden, out_dim, dropout=0.1):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, 2 * out_dim)
        self.skip = nn.Linear(in_dim, out_dim) if in_dim != out_dim else nn.Identity()
        self.norm = nn.LayerNorm(out_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        h = self.dropout(self.fc2(F.elu(self.fc1(x))))
        return self.norm(self.skip(x) + F.glu(h, dim=-1))


class StaticCovariateEncoder(nn.Module):
    """Variable selection over static covariates, as in the Temporal Fusion Transformer."""

    def __init__(self, n_vars, d_model, dropout=0.1):
        super().__init__()
        self.var_proj = nn.ModuleList(nn.Linear(1, d_model) for _ in range(n_vars))
        self.var_grns = nn.ModuleList(GatedResidualNetwork(d_model, d_model, d_model, dropout) for _ in range(n_vars))
        self.selector = GatedResidualNetwork(n_vars * d_model, d_model, n_vars, dropout)
        self.context_heads = nn.ModuleList(GatedResidualNetwork(d_model, d_model, d_model, dropout) for _ in range(4))

    def forward(self, static):
        embs = torch.stack([proj(static[:, i : i + 1]) for i, proj in enumerate(self.var_proj)], dim=1)
        weights = torch.softmax(self.selector(embs.flatten(1)), dim=-1)
        processed = torch.stack([grn(embs[:, i]) for i, grn in enumerate(self.var_grns)], dim=1)
        pooled = (weights.unsqueeze(-1) * processed).sum(dim=1)
        c_selection, c_enrichment, c_h, c_c = (head(pooled) for head in self.context_heads)
        return c_selection, c_enrichment, (c_h.unsqueeze(0), c_c.unsqueeze(0)), weights


def encode_store_metadata(encoder, numeric_meta):
    mean = numeric_meta.mean(dim=0, keepdim=True)
    std = numeric_meta.std(dim=0, keepdim=True).clamp_min(1e-6)
    return encoder((numeric_meta - mean) / std)
