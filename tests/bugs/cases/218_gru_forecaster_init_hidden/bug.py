import torch
import torch.nn as nn


class GRUForecaster(nn.Module):
    def __init__(self, n_features, hidden_size=64, num_layers=2, horizon=12):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.gru = nn.GRU(
            n_features,
            hidden_size,
            num_layers=num_layers,
            batch_first=True,
            dropout=0.1 if num_layers > 1 else 0.0,
        )
        self.head = nn.Linear(hidden_size, horizon)

    def init_hidden(self, batch_size, device):
        return torch.zeros(batch_size, self.hidden_size, device=device)

    def forward(self, x):
        b, t, _ = x.shape
        h0 = self.init_hidden(b, x.device)
        out, _ = self.gru(x, h0)
        return self.head(out[:, -1])
