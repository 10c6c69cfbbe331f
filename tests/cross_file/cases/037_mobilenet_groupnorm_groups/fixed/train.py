import torch
import torch.nn.functional as F

from config import BATCH_SIZE, IMG_SIZE, IN_CHANNELS, NUM_CLASSES
from model import MobileNetGN


def main():
    torch.manual_seed(0)
    model = MobileNetGN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    images = torch.randn(BATCH_SIZE, IN_CHANNELS, IMG_SIZE, IMG_SIZE)
    labels = torch.randint(0, NUM_CLASSES, (BATCH_SIZE,))
    for step in range(2):
        loss = F.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
