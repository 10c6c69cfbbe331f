import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class LoadForecaster(nn.Module):
    def __init__(self, n_features, hidden=48, layers=2):
        super().__init__()
        self.layers = layers
        self.hidden = hidden
        self.gru = nn.GRU(n_features, hidden, layers, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def fresh_state(self, batch):
        return torch.zeros(self.layers, batch, self.hidden)

    def forward(self, window, state):
        seq, state = self.gru(window, state)
        return self.out(seq[:, -1]).squeeze(-1), state


def make_windows(n, steps, feats):
    x = torch.randn(n, steps, feats)
    y = x[:, -1, 0] * 0.5 + 0.1 * torch.randn(n)
    return TensorDataset(x, y)


def run_epoch(model, loader, opt, batch_size):
    model.train()
    state = model.fresh_state(batch_size)
    total = 0.0
    for window, target in loader:
        state = state.detach()
        pred, state = model(window, state)
        loss = nn.functional.mse_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / len(loader)


if __name__ == "__main__":
    batch_size = 32
    data = make_windows(250, 24, 5)
    loader = DataLoader(data, batch_size=batch_size, shuffle=False, drop_last=True)
    model = LoadForecaster(5)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(run_epoch(model, loader, opt, batch_size))
