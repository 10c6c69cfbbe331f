import torch
import torch.nn as nn
import torch.nn.functional as F


class InputFeedingDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=128, hidden=256):
        super().__init__()
        self.hidden = hidden
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.LSTM(emb_dim, hidden, batch_first=True)
        self.combine = nn.Linear(2 * hidden, hidden)
        self.out = nn.Linear(hidden, vocab_size)

    def attend(self, query, enc_out):
        scores = torch.bmm(query, enc_out.transpose(1, 2))
        return torch.bmm(F.softmax(scores, dim=-1), enc_out)

    def forward(self, tgt, enc_out, state=None):
        b, t = tgt.shape
        feed = enc_out.new_zeros(b, 1, self.hidden)
        logits = []
        for i in range(t):
            emb = self.embedding(tgt[:, i:i + 1])
            out, state = self.rnn(torch.cat([emb, feed], dim=2), state)
            context = self.attend(out, enc_out)
            feed = torch.tanh(self.combine(torch.cat([out, context], dim=2)))
            logits.append(self.out(feed))
        return torch.cat(logits, dim=1), state
