import math
from itertools import product

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class SensorTransformer(nn.Module):
    def __init__(self, in_features=8, d_model=32, nhead=4, num_classes=6):
        super().__init__()
        self.input_proj = nn.Linear(in_features, d_model)
        self.pos = PositionalEncoding(d_model)
        self.encoder = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, batch_first=True)
        self.head = nn.Linear(d_model, num_classes)

    def forward(self, x):
        x = self.pos(self.input_proj(x))
        x = self.encoder(x)
        return self.head(x[:, -1])


def run(d_model=32, nhead=4):
    model = SensorTransformer(d_model=d_model, nhead=nhead)
    x = torch.randn(2, 20, 8)
    return model(x)


def main():
    for d_model, nhead in product([30, 31, 32], [2, 4]):
        y = run(d_model, nhead)
        print(d_model, nhead, y.shape)


if __name__ == "__main__":
    main()
