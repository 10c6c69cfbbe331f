import torch
import torch.nn as nn
import torch.nn.functional as F


class NoteStepper(nn.Module):
    def __init__(self, n_pitches, emb=32, hidden=64):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Embedding(n_pitches, emb)
        self.cell = nn.LSTMCell(emb, hidden)
        self.to_pitch = nn.Linear(hidden, n_pitches)

    def init_state(self):
        return torch.zeros(1, self.hidden), torch.zeros(1, self.hidden)

    def forward(self, note, state):
        x = self.embed(note.view(1))
        h, c = self.cell(x, state)
        return self.to_pitch(h), (h, c)


def melody_loss(model, melody):
    state = model.init_state()
    total = 0.0
    for t in range(melody.numel() - 1):
        logits, state = model(melody[t], state)
        total = total + F.cross_entropy(logits, melody[t + 1])
    return total / (melody.numel() - 1)


def fit_one(n_pitches, length, **kw):
    model = NoteStepper(n_pitches, **kw)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    melody = torch.randint(0, n_pitches, (length,))
    loss = melody_loss(model, melody)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
