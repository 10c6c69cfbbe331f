import torch
import torch.nn.functional as F

from nets import SmallCNN


def main():
    torch.manual_seed(0)
    model = SmallCNN(num_classes=10)
    x = torch.randn(8, 3, 32, 32)
    y = torch.randint(0, 10, (8,))
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
