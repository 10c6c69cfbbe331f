import torch
import torch.nn as nn


class FraudMLP(nn.Module):
    def __init__(self, n_features, hidden=64, dropout=0.2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, hidden // 2),
            nn.ReLU(),
            nn.Linear(hidden // 2, 1),
            nn.Sigmoid(),
        )

    def forward(self, features):
        return self.net(features)


def standardize(features, mean, std):
    return (features - mean) / (std + 1e-6)


def train_batch(model, opt, features, is_fraud):
    model.train()
    x = standardize(features, features.mean(0), features.std(0))
    probs = model(x)
    loss = nn.BCELoss()(probs.squeeze(1), is_fraud.float())
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
