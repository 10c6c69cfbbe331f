import torch
import torch.nn as nn

N_FEATURES = 16


class Regressor(nn.Module):
    def __init__(self, in_features=N_FEATURES, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


if __name__ == "__main__":
    data = torch.randn(32, N_FEATURES + 1)
    model = Regressor()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = data[:, :-1], data[:, -1]
    for step in range(3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    print(loss.item())
