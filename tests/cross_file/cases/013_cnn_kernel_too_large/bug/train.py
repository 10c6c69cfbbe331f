import torch
import torch.nn.functional as F

from data import random_batch
from nets.cnn import CNN


def main():
    torch.manual_seed(0)
    model = CNN(num_classes=10)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images, labels = random_batch(16, 16)
    opt.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
