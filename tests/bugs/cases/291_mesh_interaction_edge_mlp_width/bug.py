import torch
import torch.nn as nn


def mlp(in_dim, hidden, out_dim, norm=True):
    layers = [nn.Linear(in_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, out_dim)]
    if norm:
        layers.append(nn.LayerNorm(out_dim))
    return nn.Sequential(*layers)


class InteractionBlock(nn.Module):
    def __init__(self, node_dim, edge_dim, hidden):
        super().__init__()
        self.edge_mlp = mlp(2 * node_dim, hidden, edge_dim)
        self.node_mlp = mlp(node_dim + edge_dim, hidden, node_dim)

    def forward(self, x, e, edge_index):
        src, dst = edge_index
        edge_in = torch.cat([x.index_select(0, src), x.index_select(0, dst), e], dim=-1)
        e = e + self.edge_mlp(edge_in)
        agg = torch.zeros(x.size(0), e.size(-1), dtype=x.dtype).index_add_(0, dst, e)
        x = x + self.node_mlp(torch.cat([x, agg], dim=-1))
        return x, e


class MeshSimulator(nn.Module):
    def __init__(self, node_in=9, edge_in=3, latent=64, steps=3, out_dim=2):
        super().__init__()
        self.node_encoder = mlp(node_in, latent, latent)
        self.edge_encoder = mlp(edge_in, latent, latent)
        self.processor = nn.ModuleList([InteractionBlock(latent, latent, latent) for _ in range(steps)])
        self.decoder = mlp(latent, latent, out_dim, norm=False)

    def forward(self, node_feats, edge_feats, edge_index):
        x = self.node_encoder(node_feats)
        e = self.edge_encoder(edge_feats)
        for block in self.processor:
            x, e = block(x, e, edge_index)
        return self.decoder(x)


def rollout_loss(model, node_feats, edge_feats, edge_index, target_accel):
    pred = model(node_feats, edge_feats, edge_index)
    return ((pred - target_accel) ** 2).sum(dim=-1).mean()
