import torch
import torch.nn.functional as F


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device).repeat(2)
    return torch.cat([edge_index, loops], dim=1)


def gcn_norm(edge_index, num_nodes):
    edge_index = add_self_loops(edge_index, num_nodes)
    row, col = edge_index
    deg = torch.zeros(num_nodes).index_add_(0, col, torch.ones(col.numel()))
    inv_sqrt = deg.pow(-0.5)
    inv_sqrt[torch.isinf(inv_sqrt)] = 0.0
    return edge_index, inv_sqrt[row] * inv_sqrt[col]


def gcn_propagate(x, weight, edge_index):
    edge_index, norm = gcn_norm(edge_index, x.size(0))
    h = x @ weight
    src, dst = edge_index
    return torch.zeros_like(h).index_add_(0, dst, h[src] * norm.unsqueeze(-1))


def two_layer_gcn(x, edge_index, w1, w2, dropout=0.5, training=True):
    h = F.relu(gcn_propagate(x, w1, edge_index))
    h = F.dropout(h, dropout, training)
    return F.log_softmax(gcn_propagate(h, w2, edge_index), dim=-1)


def node_classification_loss(x, edge_index, labels, train_mask, w1, w2):
    out = two_layer_gcn(x, edge_index, w1, w2)
    return F.nll_loss(out[train_mask], labels[train_mask])
