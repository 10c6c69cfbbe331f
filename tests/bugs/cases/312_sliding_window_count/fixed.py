import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def standardize(series):
    mean = series.mean(dim=0, keepdim=True)
    std = series.std(dim=0, keepdim=True).clamp_min(1e-6)
    return (series - mean) / std, mean, std


def make_windows(series, window, horizon, stride):
    length, channels = series.shape
    span = window + horizon
    n_windows = (length - span) // stride + 1
    chunks = series.unfold(0, span, stride).transpose(1, 2)
    inputs = chunks[:, :window].reshape(n_windows, window * channels)
    targets = chunks[:, window:, 0]
    return inputs, targets


def synthetic_series(length, channels):
    t = torch.arange(length, dtype=torch.float32)
    cols = [torch.sin(2 * math.pi * t / (24 * (c + 1))) + 0.1 * torch.randn(length) for c in range(channels)]
    return torch.stack(cols, dim=1)


if __name__ == "__main__":
    WINDOW, HORIZON, STRIDE = 48, 12, 6
    series, mean, std = standardize(synthetic_series(2000, 3))
    x, y = make_windows(series, WINDOW, HORIZON, STRIDE)
    model = nn.Sequential(nn.Linear(WINDOW * 3, 128), nn.ReLU(), nn.Linear(128, HORIZON))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
