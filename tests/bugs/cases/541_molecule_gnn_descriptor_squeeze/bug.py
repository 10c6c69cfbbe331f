import numpy as np
import torch
import torch.nn as nn


class DenseGraphConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.nei_lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, h, adj):
        deg = adj.sum(-1, keepdim=True).clamp(min=1)
        return torch.relu(self.self_lin(h) + self.nei_lin(adj @ h) / deg)


class PropertyGNN(nn.Module):
    def __init__(self, atom_dim=32, hidden=64, n_desc=10, layers=3):
        super().__init__()
        dims = [atom_dim] + [hidden] * layers
        self.convs = nn.ModuleList(DenseGraphConv(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.readout = nn.Sequential(nn.Linear(hidden + n_desc, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, atoms, adj, mask, descriptors):
        h = atoms
        for conv in self.convs:
            h = conv(h, adj)
        graph = (h * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        desc = torch.from_numpy(np.stack(descriptors)).float().squeeze()
        return self.readout(torch.cat([graph, desc], dim=1)).squeeze(-1)


def random_molecule(n_atoms, atom_dim, rng):
    atoms = rng.standard_normal((n_atoms, atom_dim)).astype(np.float32)
    adj = np.zeros((n_atoms, n_atoms), dtype=np.float32)
    for i in range(n_atoms - 1):
        adj[i, i + 1] = adj[i + 1, i] = 1.0
    return atoms, adj


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    model = PropertyGNN()
    atoms, adj = random_molecule(9, 32, rng)
    descriptors = [rng.standard_normal((1, 10))]
    with torch.no_grad():
        pred = model(torch.from_numpy(atoms)[None], torch.from_numpy(adj)[None], torch.ones(1, 9), descriptors)
    print(pred)
