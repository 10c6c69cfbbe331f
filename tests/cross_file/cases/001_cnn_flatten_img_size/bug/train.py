import torch
import torch.nn as nn

from config import BATCH_SIZE, IN_CHANNELS, LR, NUM_CLASSES
from model import SimpleCNN


def main():
    torch.manual_seed(0)
    model = SimpleCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    criterion = nn.CrossEntropyLoss()
    images = torch.randn(BATCH_SIZE, IN_CHANNELS, 32, 32)
    labels = torch.randint(0, NUM_CLASSES, (BATCH_SIZE,))
    for step in range(2):
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
