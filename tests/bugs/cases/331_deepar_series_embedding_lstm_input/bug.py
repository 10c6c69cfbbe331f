import torch
import torch.nn as nn
import torch.nn.functional as F


class DeepAR(nn.Module):
    def __init__(self, n_series, n_covariates, emb_dim=20, hidden=40, n_layers=3, dropout=0.1):
        super().__init__()
        self.series_emb = nn.Embedding(n_series, emb_dim)
        self.lstm = nn.LSTM(1 + n_covariates, hidden, n_layers, batch_first=True, dropout=dropout)
        self.mu = nn.Linear(hidden, 1)
        self.presigma = nn.Linear(hidden, 1)
        self.register_buffer("cov_mean", torch.zeros(n_covariates))
        self.register_buffer("cov_std", torch.ones(n_covariates))

    def fit_covariate_scaler(self, covariates):
        flat = covariates.reshape(-1, covariates.size(-1))
        self.cov_mean.copy_(flat.mean(dim=0))
        self.cov_std.copy_(flat.std(dim=0).clamp_min(1e-6))

    def forward(self, lagged_target, covariates, series_id, state=None):
        t = lagged_target.size(1)
        covariates = (covariates - self.cov_mean) / self.cov_std
        emb = self.series_emb(series_id).unsqueeze(1).expand(-1, t, -1)
        x = torch.cat([lagged_target.unsqueeze(-1), covariates, emb], dim=-1)
        out, state = self.lstm(x, state)
        mu = self.mu(out).squeeze(-1)
        sigma = F.softplus(self.presigma(out)).squeeze(-1) + 1e-6
        return mu, sigma, state


def scale_by_mean(target, context_len):
    v = target[:, :context_len].abs().mean(dim=1, keepdim=True) + 1.0
    return target / v, v


def gaussian_nll_step(model, target, covariates, series_id, context_len):
    scaled, v = scale_by_mean(target, context_len)
    lagged = torch.cat([torch.zeros_like(scaled[:, :1]), scaled[:, :-1]], dim=1)
    mu, sigma, _ = model(lagged, covariates, series_id)
    dist = torch.distributions.Normal(mu, sigma)
    return -dist.log_prob(scaled).mean()
