import argparse

import torch
import torch.nn as nn


def transformer_layer(dim, heads):
    return nn.TransformerEncoderLayer(dim, heads, dim_feedforward=2 * dim, batch_first=True, norm_first=True)


class HourglassLevel(nn.Module):
    def __init__(self, dim, heads, shorten_factor, depth):
        super().__init__()
        self.shorten_factor = shorten_factor
        self.pre = transformer_layer(dim, heads)
        self.down = nn.AvgPool1d(shorten_factor, stride=shorten_factor)
        if depth > 1:
            self.inner = HourglassLevel(dim, heads, shorten_factor, depth - 1)
        else:
            self.inner = transformer_layer(dim, heads)
        self.post = transformer_layer(dim, heads)

    def forward(self, x):
        x = self.pre(x)
        short = self.down(x.transpose(1, 2)).transpose(1, 2)
        short = self.inner(short)
        up = short.repeat_interleave(self.shorten_factor, dim=1)
        x = x + up
        return self.post(x)


class HourglassLM(nn.Module):
    def __init__(self, vocab_size=64, dim=32, heads=4, shorten_factor=2, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.body = HourglassLevel(dim, heads, shorten_factor, depth)
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, vocab_size)

    def forward(self, tokens):
        x = self.body(self.embed(tokens))
        return self.out(self.norm(x))


def run(seq_len=64, shorten_factor=2, depth=2):
    model = HourglassLM(shorten_factor=shorten_factor, depth=depth)
    tokens = torch.randint(0, 64, (2, seq_len))
    return model(tokens)


def build_parser():
    parser = argparse.ArgumentParser(description="Hourglass transformer language model")
    parser.add_argument("--seq-len", type=int, default=64)
    parser.add_argument("--shorten-factor", type=int, default=2)
    parser.add_argument("--depth", type=int, default=2, help="number of shortening levels")
    parser.add_argument("--dropout", type=float, default=0.0)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 48 <= args.seq_len <= 64:
        parser.error("--seq-len must be in [48, 64]")
    assert 1 <= args.shorten_factor <= 4, "--shorten-factor must be in [1, 4]"
    assert 1 <= args.depth <= 3, "--depth must be in [1, 3]"
    logits = run(seq_len=args.seq_len, shorten_factor=args.shorten_factor, depth=args.depth)
    print("logits", tuple(logits.shape))


if __name__ == "__main__":
    main()
