import torch
import torch.nn.functional as F

from vision.models.resnet import ResNet


def main():
    torch.manual_seed(0)
    model = ResNet(num_classes=10)
    x = torch.randn(4, 3, 32, 32)
    y = torch.randint(0, 10, (4,))
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
