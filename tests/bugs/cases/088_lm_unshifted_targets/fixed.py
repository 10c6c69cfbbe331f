import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab_size)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def lm_loss(model, batch, pad_id=0):
    """Next-token prediction loss over a [batch, time] token tensor."""
    inputs, targets = batch[:, :-1], batch[:, 1:]
    logits = model(inputs)
    vocab = logits.size(-1)
    return F.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1), ignore_index=pad_id)
