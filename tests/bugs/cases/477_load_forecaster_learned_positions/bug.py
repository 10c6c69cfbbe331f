import torch
import torch.nn as nn

HOURS_PER_DAY = 24


class LoadForecaster(nn.Module):
    def __init__(self, n_features, d_model=64, n_heads=4, n_layers=2, max_steps=2 * HOURS_PER_DAY, horizon=24):
        super().__init__()
        self.inp = nn.Linear(n_features, d_model)
        self.pos = nn.Embedding(max_steps, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=4 * d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.head = nn.Linear(d_model, horizon)

    def forward(self, window):
        steps = torch.arange(window.size(1), device=window.device)
        h = self.inp(window) + self.pos(steps)[None]
        h = self.encoder(h)
        return self.head(h[:, -1])


def hourly_windows(n, days, n_features):
    t = torch.arange(days * HOURS_PER_DAY).float()
    daily = torch.sin(2 * torch.pi * t / HOURS_PER_DAY)
    base = daily[None, :, None].expand(n, -1, n_features)
    return base + 0.1 * torch.randn(n, days * HOURS_PER_DAY, n_features)


if __name__ == "__main__":
    lookback_days = 4
    model = LoadForecaster(n_features=7)
    x = hourly_windows(16, lookback_days, 7)
    target = torch.randn(16, 24)
    loss = nn.functional.mse_loss(model(x), target)
    loss.backward()
    print(loss.item())
