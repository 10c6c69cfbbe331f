import torch

from losses import seg_loss
from model import TinyFCN

NUM_CLASSES = 4


def main():
    torch.manual_seed(0)
    model = TinyFCN(num_classes=NUM_CLASSES)
    images = torch.randn(2, 3, 48, 48)
    masks = torch.randint(0, NUM_CLASSES, (2, 48, 48))
    loss = seg_loss(model(images), masks)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
