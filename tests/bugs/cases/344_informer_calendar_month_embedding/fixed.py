import math
from datetime import datetime, timedelta

import torch
import torch.nn as nn


class TemporalEmbedding(nn.Module):
    """Calendar embedding of the Informer: columns are [month, day, weekday, hour]."""

    def __init__(self, d_model):
        super().__init__()
        self.month_embed = nn.Embedding(13, d_model)
        self.day_embed = nn.Embedding(32, d_model)
        self.weekday_embed = nn.Embedding(7, d_model)
        self.hour_embed = nn.Embedding(24, d_model)

    def forward(self, marks):
        marks = marks.long()
        return (self.month_embed(marks[..., 0]) + self.day_embed(marks[..., 1])
                + self.weekday_embed(marks[..., 2]) + self.hour_embed(marks[..., 3]))


class DataEmbedding(nn.Module):
    def __init__(self, c_in, d_model, max_len=5000, dropout=0.05):
        super().__init__()
        self.value_embedding = nn.Conv1d(c_in, d_model, 3, padding=1, padding_mode="circular")
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model))
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))
        self.temporal_embedding = TemporalEmbedding(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, marks):
        v = self.value_embedding(x.transpose(1, 2)).transpose(1, 2)
        return self.dropout(v + self.pe[:, : x.size(1)] + self.temporal_embedding(marks))


def calendar_marks(start, hours):
    stamps = [start + timedelta(hours=h) for h in range(hours)]
    return torch.tensor([[s.month, s.day, s.weekday(), s.hour] for s in stamps])


def make_windows(series, marks, starts, seq_len):
    x = torch.stack([series[s : s + seq_len] for s in starts])
    m = torch.stack([marks[s : s + seq_len] for s in starts])
    return x, m


if __name__ == "__main__":
    hours = 24 * 366
    marks = calendar_marks(datetime(2016, 1, 1), hours)
    series = torch.randn(hours, 7).cumsum(dim=0)
    x, m = make_windows(series, marks, [0, 2000, 5000, 8500], seq_len=96)
    embed = DataEmbedding(c_in=7, d_model=512)
    enc_in = embed(x, m)
    print(enc_in.shape)
