import torch
import torch.nn as nn
import torch.nn.functional as F


class NoteAutocomplete(nn.Module):
    def __init__(self, vocab_size, emb=48, hidden=96):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab_size)

    def forward(self, tokens):
        inputs = tokens[:, :-1]
        h, _ = self.gru(self.embed(inputs))
        return self.proj(h)


def train_step(model, opt, tokens):
    model.train()
    logits = model(tokens)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


@torch.no_grad()
def evaluate(model, tokens):
    model.eval()
    logits = model(tokens)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
    return loss.item(), torch.exp(loss).item()
