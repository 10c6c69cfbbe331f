import numpy as np
import torch
import torch.nn as nn


class LaggedForecaster(nn.Module):
    def __init__(self, n_covariates, n_targets, hidden=32):
        super().__init__()
        self.gru = nn.GRU(n_covariates, hidden, batch_first=True)
        self.head = nn.Linear(hidden + n_targets, n_targets)

    def forward(self, covariates, last_target):
        _, h = self.gru(covariates)
        return self.head(torch.cat([h[-1], last_target], dim=1))


def make_windows(covariates, targets, lag):
    n = covariates.shape[0] - lag
    x = np.zeros((n, lag, covariates.shape[1]), dtype=np.float32)
    y_hist = np.zeros((n, lag, targets.shape[0]), dtype=np.float32)
    for i in range(n):
        x[i] = covariates[i:i + lag]
        y_hist[i, :, :targets.shape[1]] = targets[i:i + lag]
    return torch.from_numpy(x), torch.from_numpy(y_hist)


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    covariates = rng.normal(size=(120, 6)).astype(np.float32)
    targets = rng.normal(size=(120, 2)).astype(np.float32)
    x, y_hist = make_windows(covariates, targets, lag=12)
    model = LaggedForecaster(n_covariates=6, n_targets=2)
    with torch.no_grad():
        preds = model(x, y_hist[:, -1])
    print(preds.shape)
