import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivityGRU(nn.Module):
    def __init__(self, n_channels, hidden=48, n_activities=6):
        super().__init__()
        self.hidden = hidden
        self.norm = nn.LayerNorm(n_channels)
        self.gru = nn.GRU(n_channels, hidden, num_layers=3, batch_first=True, dropout=0.1)
        self.classify = nn.Linear(hidden, n_activities)

    def forward(self, window):
        _, h_n = self.gru(self.norm(window))
        summary = h_n.reshape(-1, self.hidden)
        return self.classify(summary)


def training_step(model, opt, windows, labels):
    model.train()
    opt.zero_grad()
    logits = model(windows)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    return loss.item()


def run(batch, steps, n_channels, **kw):
    model = ActivityGRU(n_channels, **kw)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    n_cls = model.classify.out_features
    windows = torch.randn(batch, steps, n_channels)
    labels = torch.randint(0, n_cls, (batch,))
    return training_step(model, opt, windows, labels)
