import torch
import torch.nn as nn

HIDDEN = 128


class SentimentLSTM(nn.Module):
    def __init__(self, vocab_size, embed_dim=64, hidden=HIDDEN, num_layers=2, num_classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.rnn = nn.LSTM(embed_dim, hidden, num_layers=num_layers, batch_first=True,
                           bidirectional=True, dropout=0.2 if num_layers > 1 else 0.0)
        self.fc = nn.Linear(hidden, num_classes)

    def forward(self, tokens, lengths):
        emb = self.embedding(tokens)
        packed = nn.utils.rnn.pack_padded_sequence(emb, lengths, batch_first=True, enforce_sorted=False)
        _, (h_n, _) = self.rnn(packed)
        last = torch.cat([h_n[-2], h_n[-1]], dim=1)
        return self.fc(last)
