import torch
import torch.nn as nn

QUANTILES = (0.1, 0.5, 0.9)


class MultiHorizonQuantileRNN(nn.Module):
    def __init__(self, n_series_feats, n_future_feats, hidden=64, layers=1, ctx_dim=32):
        super().__init__()
        self.encoder = nn.LSTM(n_series_feats, hidden, num_layers=layers, batch_first=True)
        self.global_mlp = nn.Sequential(nn.Linear(hidden, ctx_dim), nn.ReLU())
        self.local_mlp = nn.Sequential(
            nn.Linear(n_future_feats + ctx_dim, ctx_dim), nn.ReLU(),
            nn.Linear(ctx_dim, len(QUANTILES)),
        )

    def forward(self, history, future_feats):
        b, horizon, _ = future_feats.shape
        enc_out, _ = self.encoder(history)
        context = self.global_mlp(enc_out[:, -1])
        dec_in = torch.cat([future_feats, context.unsqueeze(1).expand(b, horizon, -1)], dim=-1)
        return self.local_mlp(dec_in)


def quantile_loss(pred, target):
    q = torch.tensor(QUANTILES, dtype=pred.dtype)
    err = target.unsqueeze(-1) - pred
    return torch.maximum(q * err, (q - 1) * err).mean()


def train_step(model, optimizer, history, future_feats, target):
    optimizer.zero_grad()
    loss = quantile_loss(model(history, future_feats), target)
    loss.backward()
    optimizer.step()
    return loss.item()
