import torch
import torch.nn as nn


class FeaturesEmbedding(nn.Module):
    def __init__(self, field_dims, embed_dim):
        super().__init__()
        field_dims = torch.as_tensor(field_dims)
        self.embedding = nn.Embedding(int(field_dims.sum()), embed_dim)
        self.register_buffer("offsets", torch.cumsum(field_dims, 0) - field_dims)
        nn.init.xavier_uniform_(self.embedding.weight)

    def forward(self, x):
        return self.embedding(x + self.offsets)


class FactorizationMachine(nn.Module):
    def forward(self, embed_x):
        square_of_sum = embed_x.sum(dim=1) ** 2
        sum_of_square = (embed_x ** 2).sum(dim=1)
        return 0.5 * (square_of_sum - sum_of_square).sum(dim=1, keepdim=True)


class DeepFM(nn.Module):
    def __init__(self, field_dims, embed_dim=16, mlp_dims=(64, 32), dropout=0.2):
        super().__init__()
        self.linear = FeaturesEmbedding(field_dims, 1)
        self.bias = nn.Parameter(torch.zeros(1))
        self.embedding = FeaturesEmbedding(field_dims, embed_dim)
        self.fm = FactorizationMachine()
        layers = []
        in_dim = len(field_dims) * embed_dim
        for d in mlp_dims:
            layers += [nn.Linear(in_dim, d), nn.BatchNorm1d(d), nn.ReLU(), nn.Dropout(dropout)]
            in_dim = d
        layers.append(nn.Linear(in_dim, 1))
        self.mlp = nn.Sequential(*layers)

    def forward(self, x):
        embed_x = self.embedding(x)
        logit = self.linear(x).sum(dim=1) + self.bias + self.fm(embed_x) + self.mlp(embed_x.flatten(1))
        return torch.sigmoid(logit.squeeze(1))
