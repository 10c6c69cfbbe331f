import torch
import torch.nn as nn

ATOM_TYPES = [1, 6, 7, 8, 9]
Z_TO_TYPE = {z: i for i, z in enumerate(ATOM_TYPES)}


class MessagePassing(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.message = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.update = nn.GRUCell(hidden, hidden)

    def forward(self, h, edge_index):
        src, dst = edge_index
        m = self.message(torch.cat([h[src], h[dst]], dim=-1))
        agg = torch.zeros_like(h).index_add_(0, dst, m)
        return self.update(agg, h)


class MoleculeRegressor(nn.Module):
    def __init__(self, hidden=64, n_layers=3):
        super().__init__()
        self.atom_emb = nn.Embedding(len(ATOM_TYPES), hidden)
        self.layers = nn.ModuleList([MessagePassing(hidden) for _ in range(n_layers)])
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, atom_types, edge_index, graph_index, num_graphs):
        h = self.atom_emb(atom_types)
        for layer in self.layers:
            h = layer(h, edge_index)
        pooled = torch.zeros(num_graphs, h.size(1)).index_add_(0, graph_index, h)
        return self.readout(pooled).squeeze(-1)


def batch_molecules(mols):
    edges, graph_index, offset = [], [], 0
    for g, (z, bonds) in enumerate(mols):
        b = torch.tensor(bonds).t() + offset
        edges.append(torch.cat([b, b.flip(0)], dim=1))
        graph_index.append(torch.full((len(z),), g))
        offset += len(z)
    return torch.cat(edges, dim=1), torch.cat(graph_index)


if __name__ == "__main__":
    water = ([8, 1, 1], [(0, 1), (0, 2)])
    methanol = ([6, 8, 1, 1, 1, 1], [(0, 1), (0, 2), (0, 3), (0, 4), (1, 5)])
    mols = [water, methanol]
    edge_index, graph_index = batch_molecules(mols)
    atom_types = torch.cat([torch.tensor(z) for z, _ in mols])
    model = MoleculeRegressor()
    energies = model(atom_types, edge_index, graph_index, num_graphs=len(mols))
    loss = nn.functional.mse_loss(energies, torch.tensor([-76.4, -115.7]))
    print(loss.item())
