import torch
import torch.nn as nn


class TabularMLP(nn.Module):
    def __init__(self, in_features=12, hidden=32, num_classes=1):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Linear(hidden, num_classes),
        )

    def forward(self, x):
        return self.net(x)


def run(num_classes=1):
    model = TabularMLP(num_classes=num_classes)
    criterion = nn.BCEWithLogitsLoss()
    x = torch.randn(2, 12)
    y = torch.randint(0, 2, (2, 1)).float()
    logits = model(x)
    loss = criterion(logits, y)
    loss.backward()
    return loss


def main():
    for num_classes in [1, 2, 5]:
        loss = run(num_classes=num_classes)
        print(f"num_classes={num_classes} loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
