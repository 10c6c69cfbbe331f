import torch
import torch.nn as nn


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=300, hidden=256):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)

    def forward(self, tokens):
        out, _ = self.lstm(self.embed(tokens))
        return out


class NLIClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=300, hidden=256, n_labels=3):
        super().__init__()
        self.encoder = SentenceEncoder(vocab_size, emb_dim, hidden)
        self.mlp = nn.Sequential(
            nn.Linear(8 * hidden, 512),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Linear(512, n_labels),
        )

    def forward(self, premise, hypothesis):
        u = self.encoder(premise).max(dim=1).values
        v = self.encoder(hypothesis)
        pair = torch.cat([u, v], dim=1)
        features = torch.cat([pair, torch.abs(u - v), u * v], dim=1)
        return self.mlp(features)
