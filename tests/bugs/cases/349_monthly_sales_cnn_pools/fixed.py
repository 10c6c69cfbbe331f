import torch
import torch.nn as nn
import torch.nn.functional as F


class SalesCNN(nn.Module):
    """1-D CNN forecaster over a trailing window of monthly sales plus store features."""

    def __init__(self, n_features, n_stores, channels=(32, 64, 128), horizon=3, store_dim=8):
        super().__init__()
        layers, in_ch = [], n_features
        for ch in channels:
            layers += [nn.Conv1d(in_ch, ch, 3, padding=1), nn.BatchNorm1d(ch), nn.ReLU(), nn.MaxPool1d(2)]
            in_ch = ch
        self.conv = nn.Sequential(*layers)
        self.store_emb = nn.Embedding(n_stores, store_dim)
        self.head = nn.Sequential(nn.Linear(in_ch + store_dim, 64), nn.ReLU(), nn.Linear(64, horizon))

    def forward(self, window, store):
        h = self.conv(window.transpose(1, 2)).mean(dim=2)
        return self.head(torch.cat([h, self.store_emb(store)], dim=1))


def build_windows(sales, exog, lookback=12, horizon=3):
    xs, ys = [], []
    for t in range(lookback, sales.size(1) - horizon + 1):
        feats = torch.cat([sales[:, t - lookback : t, None], exog[:, t - lookback : t]], dim=2)
        xs.append(feats)
        ys.append(sales[:, t : t + horizon])
    return torch.cat(xs), torch.cat(ys)


def log_scale(sales):
    return torch.log1p(sales.clamp(min=0))


if __name__ == "__main__":
    n_stores, n_months = 45, 60
    sales = log_scale(torch.rand(n_stores, n_months) * 1e4)
    exog = torch.randn(n_stores, n_months, 4)
    x, y = build_windows(sales, exog)
    stores = torch.arange(n_stores).repeat(x.size(0) // n_stores)
    model = SalesCNN(n_features=5, n_stores=n_stores)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(2):
        loss = F.l1_loss(model(x, stores), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
