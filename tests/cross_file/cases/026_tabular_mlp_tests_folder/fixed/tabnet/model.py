import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, dim, dropout):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.ReLU(), nn.Dropout(dropout), nn.Linear(dim, dim))

    def forward(self, x):
        return x + self.net(x)


class ResidualMLP(nn.Module):
    def __init__(self, in_features, width=128, depth=3, out_features=1, dropout=0.1):
        super().__init__()
        self.inp = nn.Linear(in_features, width)
        self.blocks = nn.Sequential(*[ResBlock(width, dropout) for _ in range(depth)])
        self.out = nn.Linear(width, out_features)

    def forward(self, x):
        return self.out(self.blocks(self.inp(x)))
