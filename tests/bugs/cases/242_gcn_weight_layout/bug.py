import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.zeros(out_features)) if bias else None
        stdv = 1.0 / math.sqrt(out_features)
        self.weight.data.uniform_(-stdv, stdv)

    def forward(self, x, adj):
        support = torch.mm(x, self.weight)
        out = torch.mm(adj, support)
        return out + self.bias if self.bias is not None else out


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout=0.5):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        return F.log_softmax(self.gc2(x, adj), dim=1)


def normalized_adjacency(n, edges):
    adj = torch.eye(n)
    adj[edges[0], edges[1]] = 1.0
    adj[edges[1], edges[0]] = 1.0
    deg_inv_sqrt = adj.sum(1).pow(-0.5)
    return deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]


if __name__ == "__main__":
    n_nodes, n_feats = 300, 500
    x = torch.randn(n_nodes, n_feats)
    edges = torch.randint(0, n_nodes, (2, 1200))
    adj = normalized_adjacency(n_nodes, edges)
    model = GCN(n_feats, 16, 7)
    print(model(x, adj).shape)
