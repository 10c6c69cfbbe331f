import torch
import torch.nn as nn
import torch.nn.functional as F


class Forecaster(nn.Module):
    def __init__(self, n_features, hidden=64, horizon=24, num_layers=2):
        super().__init__()
        self.gru = nn.GRU(n_features, hidden, num_layers, batch_first=True)
        self.head = nn.Linear(hidden, horizon)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1])


def calendar_features(hours):
    hour_onehot = F.one_hot(hours % 24, 24).float()
    dow_onehot = F.one_hot((hours // 24) % 7, 7).float()
    return torch.cat([hour_onehot, dow_onehot], dim=-1)


def make_windows(series, hours, window=48):
    n = series.shape[0] - window
    idx = torch.arange(window)[None, :] + torch.arange(n)[:, None]
    feats = torch.cat([series, calendar_features(hours)], dim=-1)
    return feats[idx]


if __name__ == "__main__":
    n_sensors = 7
    series = torch.randn(500, n_sensors)
    hours = torch.arange(500)
    windows = make_windows(series, hours)
    model = Forecaster(n_features=n_sensors + 24 + 7)
    print(model(windows[:32]).shape)
