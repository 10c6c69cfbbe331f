import torch
import torch.nn.functional as F

from vit import ViT


def main():
    torch.manual_seed(0)
    model = ViT(img_size=32, patch_size=4, num_classes=10)
    images = torch.randn(4, 3, 32, 32)
    labels = torch.randint(0, 10, (4,))
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
