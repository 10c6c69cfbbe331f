import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_dim, out_dim, negative_slope=0.2, dropout=0.1):
        super().__init__()
        self.proj = nn.Linear(in_dim, out_dim, bias=False)
        self.attn = nn.Linear(2 * out_dim, 1, bias=False)
        self.leaky = nn.LeakyReLU(negative_slope)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, edge_index):
        src, dst = edge_index
        h = self.proj(x)
        pair = torch.cat([h[dst], h[src]], dim=-1)
        e = self.leaky(self.attn(pair)).squeeze(-1)
        e = e - e.max()
        w = e.exp()
        denom = torch.zeros(x.size(0), dtype=w.dtype).index_add_(0, dst, w)
        alpha = self.dropout(w / (denom[dst] + 1e-16))
        out = torch.zeros_like(h).index_add_(0, dst, alpha.unsqueeze(-1) * h[src])
        return out


class GAT(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, n_layers=2):
        super().__init__()
        dims = [in_dim] + [hidden] * (n_layers - 1)
        self.layers = nn.ModuleList(GraphAttentionLayer(a, hidden) for a in dims)
        self.classifier = nn.Linear(hidden, n_classes)

    def forward(self, x, edge_index):
        for layer in self.layers:
            x = F.elu(layer(x, edge_index))
        return self.classifier(x)


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def node_classification_loss(model, x, edge_index, labels, train_mask):
    edge_index = add_self_loops(edge_index, x.size(0))
    logits = model(x, edge_index)
    return F.cross_entropy(logits[train_mask], labels[train_mask])
