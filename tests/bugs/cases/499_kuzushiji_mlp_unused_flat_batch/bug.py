import torch
import torch.nn as nn
import torch.nn.functional as F


class GlyphMLP(nn.Module):
    def __init__(self, side=28, hidden=200, n_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(side * side, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.dropout(F.relu(self.fc2(x)), 0.2, self.training)
        return self.out(x)


def batches(images, labels, size):
    for i in range(0, len(images), size):
        yield images[i:i + size], labels[i:i + size]


def train_epoch(net, opt, images, labels, batch_size=32):
    net.train()
    total = 0.0
    for x, y in batches(images, labels, batch_size):
        x_flat = x.reshape(x.size(0), -1)
        logits = net(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
    return total / len(images)


if __name__ == "__main__":
    images = torch.rand(96, 1, 28, 28)
    labels = torch.randint(0, 10, (96,))
    net = GlyphMLP()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    print(train_epoch(net, opt, images, labels))
