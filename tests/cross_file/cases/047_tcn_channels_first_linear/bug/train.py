import torch
import torch.nn as nn
import torch.nn.functional as F

from tcn import TemporalConvNet

N_FEATURES = 7
WINDOW = 96


class NextStepForecaster(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.encoder = TemporalConvNet(n_features)
        self.head = nn.Linear(self.encoder.out_features, n_features)

    def forward(self, x):
        return self.head(self.encoder(x))


def main():
    torch.manual_seed(0)
    series = torch.cumsum(torch.randn(8, WINDOW + 1, N_FEATURES), dim=1)
    inputs, targets = series[:, :-1], series[:, 1:]
    model = NextStepForecaster(N_FEATURES)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    preds = model(inputs)
    loss = F.mse_loss(preds, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(tuple(preds.shape), loss.item())


if __name__ == "__main__":
    main()
