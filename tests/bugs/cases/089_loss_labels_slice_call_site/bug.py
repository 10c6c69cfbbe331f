import torch
import torch.nn as nn

BATCH_SIZE = 16


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, 10))

    def forward(self, x):
        return self.net(x)


def train_one_epoch(model, batches, criterion, optimizer):
    total = 0.0
    for images, labels in batches:
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(batches)


if __name__ == "__main__":
    model = Net()
    data = torch.randn(40, 3, 32, 32)
    targets = torch.randint(0, 10, (40,))
    batches = [(data[i:i + BATCH_SIZE], targets[i:BATCH_SIZE]) for i in range(0, 40, BATCH_SIZE)]
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    print(train_one_epoch(model, batches, nn.CrossEntropyLoss(), opt))
