import torch
import torch.nn as nn


class ProjectedLSTMLM(nn.Module):
    def __init__(self, vocab_size, hidden=512, proj=128, num_layers=2, dropout=0.1):
        super().__init__()
        self.num_layers = num_layers
        self.hidden = hidden
        self.proj = proj
        self.embed = nn.Embedding(vocab_size, proj)
        self.lstm = nn.LSTM(proj, hidden, num_layers, batch_first=True, dropout=dropout, proj_size=proj)
        self.decoder = nn.Linear(proj, vocab_size)

    def init_state(self, batch_size, device=None):
        h0 = torch.zeros(self.num_layers, batch_size, self.proj, device=device)
        c0 = torch.zeros(self.num_layers, batch_size, self.hidden, device=device)
        return h0, c0

    def forward(self, tokens, state=None):
        b, t = tokens.shape
        if state is None:
            state = self.init_state(b, tokens.device)
        out, state = self.lstm(self.embed(tokens), state)
        return self.decoder(out), state
