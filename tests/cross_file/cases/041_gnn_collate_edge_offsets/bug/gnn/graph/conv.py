import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_self = nn.Linear(in_dim, out_dim)
        self.lin_msg = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        msg = self.lin_msg(x.index_select(0, src))
        agg = torch.zeros(x.size(0), msg.size(1)).index_add_(0, dst, msg)
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel())).clamp(min=1)
        return torch.relu(self.lin_self(x) + agg / deg.unsqueeze(1))


def global_mean_pool(x, batch, num_graphs):
    out = torch.zeros(num_graphs, x.size(1)).index_add_(0, batch, x)
    count = torch.bincount(batch, minlength=num_graphs).clamp(min=1)
    return out / count.unsqueeze(1).to(x.dtype)
