import torch
import torch.nn as nn


class ResidualUnit1d(nn.Module):
    def __init__(self, channels, kernel_size=5):
        super().__init__()
        pad = kernel_size // 2
        self.conv1 = nn.Conv1d(channels, channels, kernel_size, padding=pad)
        self.conv2 = nn.Conv1d(channels, channels, kernel_size, padding=pad)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(x + self.conv2(self.act(self.conv1(x))))


class HeartbeatNet(nn.Module):
    def __init__(self, num_classes=5, channels=32, num_units=5):
        super().__init__()
        self.stem = nn.Conv1d(1, channels, kernel_size=5, stride=1, padding=2)
        blocks = []
        for _ in range(num_units):
            blocks += [ResidualUnit1d(channels), nn.MaxPool1d(kernel_size=5, stride=2)]
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(channels * 2, 32), nn.ReLU(), nn.Linear(32, num_classes))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))


def train_epoch(model, beats, labels, optimizer, batch_size=64):
    model.train()
    perm = torch.randperm(beats.shape[0])
    total = 0.0
    for i in range(0, beats.shape[0], batch_size):
        idx = perm[i : i + batch_size]
        loss = nn.functional.cross_entropy(model(beats[idx]), labels[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)
    return total / beats.shape[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    beats = torch.randn(256, 1, 187)
    labels = torch.randint(0, 5, (256,))
    model = HeartbeatNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(train_epoch(model, beats, labels, optimizer))
