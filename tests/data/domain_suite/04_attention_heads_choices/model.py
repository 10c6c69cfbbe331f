import argparse

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        qkv = self.qkv(x).reshape(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x


def run(dim=32, heads=4):
    block = Block(dim, heads)
    x = torch.randn(2, 10, dim)
    return block(x)


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=32, choices=[24, 32, 40, 48])
    parser.add_argument("--heads", type=int, default=4, choices=[1, 2, 3, 4, 6, 8])
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    y = run(dim=args.dim, heads=args.heads)
    print(y.shape)


if __name__ == "__main__":
    main()
