import torch
import torch.nn as nn
import torch.nn.functional as F


class GRUTagger(nn.Module):
    def __init__(self, vocab_size=5000, n_tags=17, emb=100, hidden=128, pad_idx=0):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb, padding_idx=pad_idx)
        self.gru = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tags)

    def forward(self, words):
        h, _ = self.gru(self.emb(words))
        return self.out(h)

    def loss(self, words, tags):
        logits = self.forward(words)
        return F.cross_entropy(logits.transpose(1, 2), tags, ignore_index=-100)


if __name__ == "__main__":
    tagger = GRUTagger()
    words = torch.randint(1, 5000, (4, 25))
    tags = torch.randint(0, 17, (4, 25))
    loss = tagger.loss(words, tags)
    loss.backward()
    print(loss.item())
