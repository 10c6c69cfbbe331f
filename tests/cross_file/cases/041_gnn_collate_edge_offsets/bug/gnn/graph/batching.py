import torch


def random_graph(num_nodes, num_edges, feat_dim):
    x = torch.randn(num_nodes, feat_dim)
    edge_index = torch.randint(0, num_nodes, (2, num_edges))
    return x, edge_index


def collate(graphs):
    xs, edges, batch = [], [], []
    offset = 0
    for i, (x, edge_index) in enumerate(graphs):
        xs.append(x)
        edges.append(edge_index + offset)
        batch.append(torch.full((x.size(0),), i, dtype=torch.long))
        offset += edge_index.size(1)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch)
