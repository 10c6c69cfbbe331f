import torch
import torch.nn.functional as F

from models import MODELS

ARCH = "mlp"


def main():
    torch.manual_seed(0)
    images = torch.randn(8, 3, 32, 32)
    labels = torch.randint(0, 10, (8,))
    model = MODELS[ARCH](in_features=3 * 32 * 32, num_classes=10)
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    print(ARCH, "loss", loss.item())


if __name__ == "__main__":
    main()
