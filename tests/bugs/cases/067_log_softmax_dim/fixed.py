import torch
import torch.nn as nn
import torch.nn.functional as F


class MLPClassifier(nn.Module):
    def __init__(self, in_dim, n_classes, hidden=128, n_layers=2, dropout=0.1):
        super().__init__()
        dims = [in_dim] + [hidden] * n_layers
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(dims[-1], n_classes)

    def forward(self, x):
        for layer in self.layers:
            x = self.dropout(F.relu(layer(x)))
        return F.log_softmax(self.out(x), dim=1)


def nll(model, x, y):
    return F.nll_loss(model(x), y)
