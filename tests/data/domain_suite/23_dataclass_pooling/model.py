from dataclasses import dataclass
from typing import Literal

import torch
import torch.nn as nn

MAX_LEN = 16


@dataclass
class EncoderConfig:
    pooling: Literal["cls", "mean", "flatten"] = "mean"
    seq_len: Literal[8, 16] = 16
    vocab_size: int = 50
    d_model: int = 32
    n_heads: int = 4
    num_classes: int = 3


class TextEncoder(nn.Module):
    def __init__(self, cfg: EncoderConfig):
        super().__init__()
        self.pooling = cfg.pooling
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, cfg.d_model))
        self.pos_embed = nn.Parameter(torch.randn(1, MAX_LEN, cfg.d_model) * 0.02)
        self.layer = nn.TransformerEncoderLayer(cfg.d_model, cfg.n_heads, dim_feedforward=64, batch_first=True)
        if cfg.pooling == "flatten":
            self.head = nn.Linear(cfg.d_model * MAX_LEN, cfg.num_classes)
        else:
            self.head = nn.Linear(cfg.d_model, cfg.num_classes)

    def forward(self, tokens):
        x = self.embed(tokens)
        if self.pooling == "cls":
            cls = self.cls_token.expand(x.size(0), -1, -1)
            x = torch.cat([cls, x], dim=1)
        x = x + self.pos_embed[:, : x.size(1)]
        x = self.layer(x)
        if self.pooling == "cls":
            x = x[:, 0]
        elif self.pooling == "mean":
            x = x.mean(dim=1)
        else:
            x = x.flatten(1)
        return self.head(x)


def run(pooling="mean", seq_len=16):
    cfg = EncoderConfig(pooling=pooling, seq_len=seq_len)
    model = TextEncoder(cfg)
    tokens = torch.randint(0, cfg.vocab_size, (2, cfg.seq_len))
    return model(tokens)


def main():
    cfg = EncoderConfig()
    print(run(pooling=cfg.pooling, seq_len=cfg.seq_len).shape)


if __name__ == "__main__":
    main()
