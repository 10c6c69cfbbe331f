import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, in_features, hidden_sizes, out_features, dropout=0.2):
        super().__init__()
        layers = []
        prev = in_features
        for h in hidden_sizes:
            layers.append(nn.Linear(in_features, h))
            layers.append(nn.BatchNorm1d(h))
            layers.append(nn.ReLU())
            layers.append(nn.Dropout(dropout))
            prev = h
        self.body = nn.Sequential(*layers)
        self.out = nn.Linear(prev, out_features)

    def forward(self, x):
        return self.out(self.body(x))


if __name__ == "__main__":
    net = MLP(784, [256, 128, 64], 10)
    x = torch.randn(16, 1, 28, 28).flatten(1)
    print(net(x).shape)
