import itertools
import json
from pathlib import Path

import torch
import torch.nn as nn


class SubsampledAttention(nn.Module):
    def __init__(self, in_features=8, d_model=32, subsample=2):
        super().__init__()
        self.subsample = subsample
        self.input_proj = nn.Linear(in_features, d_model)
        self.conv = nn.Conv1d(d_model, d_model, kernel_size=subsample, stride=subsample)
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, 2)

    def forward(self, feats, mask):
        x = self.input_proj(feats)
        x = self.conv(x.transpose(1, 2)).transpose(1, 2)
        mask = mask[:, :: self.subsample]
        q, k, v = self.q(x), self.k(x), self.v(x)
        scores = q @ k.transpose(1, 2) / x.size(-1) ** 0.5
        scores = scores.masked_fill(~mask[:, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        return self.out((attn @ v).mean(dim=1))


def run(seq_len=16, subsample=2, d_model=32):
    model = SubsampledAttention(d_model=d_model, subsample=subsample)
    feats = torch.randn(2, seq_len, 8)
    mask = torch.ones(2, seq_len, dtype=torch.bool)
    return model(feats, mask)


def main():
    cfg = json.loads((Path(__file__).resolve().parent / "sweep.json").read_text())
    grid = cfg["grid"]
    for seq_len, subsample in itertools.product(grid["seq_len"], grid["subsample"]):
        out = run(seq_len=seq_len, subsample=subsample, d_model=cfg["d_model"])
        print(seq_len, subsample, tuple(out.shape))


if __name__ == "__main__":
    main()
