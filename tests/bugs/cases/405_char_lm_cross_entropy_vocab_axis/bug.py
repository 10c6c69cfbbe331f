import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog " * 20
VOCAB = sorted(set(TEXT))
STOI = {ch: i for i, ch in enumerate(VOCAB)}


class CharGRU(nn.Module):
    def __init__(self, vocab_size, emb=32, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab_size)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.proj(h)


def make_batch(seq_len=40, batch=16):
    data = torch.tensor([STOI[c] for c in TEXT])
    starts = torch.randint(0, len(data) - seq_len - 1, (batch,))
    x = torch.stack([data[s:s + seq_len] for s in starts])
    y = torch.stack([data[s + 1:s + seq_len + 1] for s in starts])
    return x, y


if __name__ == "__main__":
    model = CharGRU(len(VOCAB))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    x, y = make_batch()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
