import torch
import torch.nn.functional as F

from .model import UNet


def main():
    torch.manual_seed(0)
    model = UNet(in_channels=1, num_classes=2)
    images = torch.randn(2, 1, 64, 64)
    masks = torch.randint(0, 2, (2, 64, 64))
    logits = model(images)
    loss = F.cross_entropy(logits, masks)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
