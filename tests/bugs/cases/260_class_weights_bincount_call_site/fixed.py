import torch
import torch.nn as nn


class TabularNet(nn.Module):
    def __init__(self, n_features, n_classes, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        return self.net(x)


def train_epoch(model, loader, criterion, optimizer):
    model.train()
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    return total


if __name__ == "__main__":
    n_classes = 10
    x = torch.randn(512, 20)
    y = torch.randint(0, 7, (512,))
    counts = torch.bincount(y, minlength=n_classes)
    weights = counts.sum() / (n_classes * counts.float().clamp(min=1))
    criterion = nn.CrossEntropyLoss(weight=weights)
    model = TabularNet(20, n_classes)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = list(zip(x.split(64), y.split(64)))
    print(train_epoch(model, loader, criterion, optimizer))
