import torch
import torch.nn as nn


class AttentivePooling(nn.Module):
    """Additive attention pooling over time for utterance-level features."""

    def __init__(self, in_dim, attn_dim=64):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(in_dim, attn_dim), nn.Tanh(), nn.Linear(attn_dim, 1, bias=False))
        self.softmax = nn.Softmax(dim=1)

    def forward(self, h):
        """h: [batch, time, in_dim] -> [batch, in_dim]"""
        e = self.score(h).squeeze(-1)
        alpha = self.softmax(e)
        return torch.bmm(alpha.unsqueeze(1), h).squeeze(1)


class UtteranceClassifier(nn.Module):
    def __init__(self, n_feats=40, hidden=64, n_classes=4):
        super().__init__()
        self.rnn = nn.GRU(n_feats, hidden, batch_first=True)
        self.pool = AttentivePooling(hidden)
        self.fc = nn.Linear(hidden, n_classes)

    def forward(self, feats):
        h, _ = self.rnn(feats)
        return self.fc(self.pool(h))
