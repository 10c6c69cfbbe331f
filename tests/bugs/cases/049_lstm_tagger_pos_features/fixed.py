import torch
import torch.nn as nn


class BiLSTMTagger(nn.Module):
    """NER tagger over word embeddings concatenated with POS-tag embeddings."""

    def __init__(self, vocab_size, n_pos, n_tags, word_dim=100, pos_dim=25, hidden=128):
        super().__init__()
        self.word_emb = nn.Embedding(vocab_size, word_dim, padding_idx=0)
        self.pos_emb = nn.Embedding(n_pos, pos_dim)
        self.lstm = nn.LSTM(word_dim + pos_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.33)
        self.out = nn.Linear(2 * hidden, n_tags)

    def forward(self, words, pos_tags):
        x = torch.cat([self.word_emb(words), self.pos_emb(pos_tags)], dim=-1)
        h, _ = self.lstm(self.dropout(x))
        return self.out(self.dropout(h))
