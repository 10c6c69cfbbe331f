import torch
import torch.nn as nn


class BiLSTMAttnClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=100, hidden=128, num_heads=4, num_classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.attn = nn.MultiheadAttention(hidden, num_heads, dropout=0.1, batch_first=True)
        self.norm = nn.LayerNorm(2 * hidden)
        self.fc = nn.Linear(2 * hidden, num_classes)

    def forward(self, tokens):
        pad_mask = tokens == 0
        h, _ = self.lstm(self.embedding(tokens))
        a, _ = self.attn(h, h, h, key_padding_mask=pad_mask)
        h = self.norm(h + a)
        h = h.masked_fill(pad_mask.unsqueeze(-1), 0.0)
        lengths = (~pad_mask).sum(dim=-1, keepdim=True).clamp(min=1)
        return self.fc(h.sum(dim=-2) / lengths)
