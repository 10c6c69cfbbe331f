import torch
import torch.nn.functional as F

from config import BATCH_SIZE, EPOCHS, IMAGE_SIZE, IN_CHANNELS, NUM_CLASSES
from model import DeepCNN


def main():
    torch.manual_seed(0)
    model = DeepCNN(IN_CHANNELS, NUM_CLASSES)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x = torch.randn(BATCH_SIZE, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    y = torch.randint(0, NUM_CLASSES, (BATCH_SIZE,))
    for epoch in range(EPOCHS):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
