import torch
import torch.nn as nn
import torch.nn.functional as F


class PriceLSTM(nn.Module):
    def __init__(self, n_features=5, hidden=64, n_layers=2, dropout=0.2, horizon=1):
        super().__init__()
        self.hidden, self.n_layers = hidden, n_layers
        self.lstm = nn.LSTM(n_features, hidden, n_layers, dropout=dropout)
        self.head = nn.Sequential(nn.Linear(hidden, hidden // 2), nn.ReLU(), nn.Linear(hidden // 2, horizon))

    def init_state(self, batch_size):
        h0 = torch.zeros(self.n_layers, batch_size, self.hidden)
        c0 = torch.zeros(self.n_layers, batch_size, self.hidden)
        return h0, c0

    def forward(self, x):
        out, _ = self.lstm(x, self.init_state(x.size(0)))
        return self.head(out[:, -1])


def make_windows(prices, window=60, horizon=1):
    xs, ys = [], []
    for i in range(len(prices) - window - horizon + 1):
        xs.append(prices[i : i + window])
        ys.append(prices[i + window : i + window + horizon, 3])
    return torch.stack(xs), torch.stack(ys)


def minmax_scale(prices):
    lo, hi = prices.min(dim=0).values, prices.max(dim=0).values
    return (prices - lo) / (hi - lo + 1e-8)


if __name__ == "__main__":
    torch.manual_seed(0)
    ohlcv = torch.randn(500, 5).cumsum(dim=0).abs() + 10.0
    x, y = make_windows(minmax_scale(ohlcv))
    model = PriceLSTM()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for start in range(0, 128, 32):
        xb, yb = x[start : start + 32], y[start : start + 32]
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
