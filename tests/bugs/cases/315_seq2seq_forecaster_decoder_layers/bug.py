import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"n_features": 6, "n_covariates": 3, "hidden": 64, "num_layers": 2, "horizon": 24, "dropout": 0.1}


class Encoder(nn.Module):
    def __init__(self, n_features, hidden, num_layers, dropout):
        super().__init__()
        self.rnn = nn.LSTM(n_features, hidden, num_layers=num_layers, dropout=dropout, batch_first=True)

    def forward(self, x):
        _, state = self.rnn(x)
        return state


class Decoder(nn.Module):
    def __init__(self, n_covariates, hidden, num_layers, dropout):
        super().__init__()
        self.rnn = nn.LSTM(1 + n_covariates, hidden, dropout=dropout, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, y_prev, covariates, state):
        step_in = torch.cat([y_prev, covariates], dim=-1).unsqueeze(1)
        out, state = self.rnn(step_in, state)
        return self.out(out.squeeze(1)), state


class Forecaster(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.horizon = cfg["horizon"]
        self.encoder = Encoder(cfg["n_features"], cfg["hidden"], cfg["num_layers"], cfg["dropout"])
        self.decoder = Decoder(cfg["n_covariates"], cfg["hidden"], cfg["num_layers"], cfg["dropout"])

    def forward(self, history, future_covariates, target_col=0):
        state = self.encoder(history)
        y = history[:, -1, target_col:target_col + 1]
        preds = []
        for t in range(self.horizon):
            y, state = self.decoder(y, future_covariates[:, t], state)
            preds.append(y)
        return torch.cat(preds, dim=1)


if __name__ == "__main__":
    model = Forecaster(CONFIG)
    history = torch.randn(16, 96, CONFIG["n_features"])
    future = torch.randn(16, CONFIG["horizon"], CONFIG["n_covariates"])
    target = torch.randn(16, CONFIG["horizon"])
    loss = F.l1_loss(model(history, future), target)
    loss.backward()
    print(loss.item())
