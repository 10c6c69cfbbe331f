"""Train a toy next-token model on random data."""

import argparse
import os

import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

from nlp_playground.attention import EncoderLayer, causal_mask, sinusoidal_positions


class TinyLM(nn.Module):
    def __init__(self, vocab, dim=64, layers=2, seq_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.register_buffer("pos", sinusoidal_positions(seq_len, dim))
        self.layers = nn.ModuleList([EncoderLayer(dim) for _ in range(layers)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        n = tokens.size(1)
        x = self.embed(tokens) + self.pos[:n].unsqueeze(0)
        mask = causal_mask(n, device=tokens.device)
        for layer in self.layers:
            x = layer(x, mask)
        return self.head(x)


def make_loader(vocab, n_samples, seq_len, batch_size):
    data = torch.randint(0, vocab, (n_samples, seq_len + 1))
    dataset = TensorDataset(data[:, :-1], data[:, 1:])
    return DataLoader(dataset, batch_size=batch_size, shuffle=True)


def train(args):
    torch.manual_seed(args.seed)
    model = TinyLM(args.vocab, seq_len=args.seq_len)
    opt = optim.AdamW(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    loader = make_loader(args.vocab, 256, args.seq_len, args.batch_size)
    for epoch in range(args.epochs):
        total = 0.0
        for inputs, targets in loader:
            logits = model(inputs)
            loss = loss_fn(logits.reshape(-1, args.vocab), targets.reshape(-1))
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total += loss.item()
        print("epoch %d loss %.3f" % (epoch, total / len(loader)))
    os.makedirs(args.out, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(args.out, "tiny_lm.pt"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vocab", type=int, default=100)
    parser.add_argument("--seq-len", type=int, default=32)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs")
    train(parser.parse_args())
