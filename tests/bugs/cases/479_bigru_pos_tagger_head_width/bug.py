import torch
import torch.nn as nn
import torch.nn.functional as F


class CharWordEncoder(nn.Module):
    def __init__(self, n_chars, char_dim=16, out_dim=32):
        super().__init__()
        self.embed = nn.Embedding(n_chars, char_dim, padding_idx=0)
        self.conv = nn.Conv1d(char_dim, out_dim, 3, padding=1)

    def forward(self, chars):
        b, t, c = chars.shape
        x = self.embed(chars.view(b * t, c)).transpose(1, 2)
        x = F.relu(self.conv(x)).amax(dim=2)
        return x.view(b, t, -1)


class BiGRUTagger(nn.Module):
    def __init__(self, n_words, n_chars, n_tags, word_dim=64, hidden=128):
        super().__init__()
        self.words = nn.Embedding(n_words, word_dim, padding_idx=0)
        self.chars = CharWordEncoder(n_chars)
        self.rnn = nn.GRU(word_dim + 32, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.3)
        self.emit = nn.Linear(hidden, n_tags)

    def forward(self, word_ids, char_ids):
        x = torch.cat([self.words(word_ids), self.chars(char_ids)], dim=-1)
        states, _ = self.rnn(self.dropout(x))
        return self.emit(self.dropout(states))


def tag_loss(model, batch, seq_len, max_chars, n_words, n_chars, n_tags):
    word_ids = torch.randint(1, n_words, (batch, seq_len))
    char_ids = torch.randint(1, n_chars, (batch, seq_len, max_chars))
    tags = torch.randint(0, n_tags, (batch, seq_len))
    scores = model(word_ids, char_ids)
    return F.cross_entropy(scores.reshape(-1, n_tags), tags.reshape(-1))
