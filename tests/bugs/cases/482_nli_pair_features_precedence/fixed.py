import torch
import torch.nn as nn
import torch.nn.functional as F


class SentenceEncoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.rnn = nn.GRU(dim, dim, batch_first=True)

    def forward(self, ids):
        out, _ = self.rnn(self.embed(ids))
        mask = (ids != 0).unsqueeze(-1).float()
        return (out * mask).sum(1) / mask.sum(1).clamp(min=1.0)


class PairClassifier(nn.Module):
    def __init__(self, vocab, dim=100, n_labels=3, interactions=True):
        super().__init__()
        self.interactions = interactions
        self.encoder = SentenceEncoder(vocab, dim)
        pair_dim = dim * (4 if interactions else 2)
        self.mlp = nn.Sequential(nn.Linear(pair_dim, 200), nn.Tanh(), nn.Linear(200, n_labels))

    def forward(self, premise, hypothesis):
        u, v = self.encoder(premise), self.encoder(hypothesis)
        feats = [u, v]
        if self.interactions:
            feats += [torch.abs(u - v), u * v]
        return self.mlp(torch.cat(feats, dim=1))


if __name__ == "__main__":
    model = PairClassifier(vocab=5000, interactions=False)
    premise = torch.randint(1, 5000, (16, 22))
    hypothesis = torch.randint(1, 5000, (16, 14))
    labels = torch.randint(0, 3, (16,))
    loss = F.cross_entropy(model(premise, hypothesis), labels)
    loss.backward()
    print(loss.item())
