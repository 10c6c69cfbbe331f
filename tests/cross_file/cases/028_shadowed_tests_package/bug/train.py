import torch
import torch.nn.functional as F

from mylib import Classifier, Encoder


def main():
    torch.manual_seed(0)
    encoder = Encoder(in_dim=64)
    classifier = Classifier(in_dim=256, num_classes=10)
    x = torch.randn(16, 64)
    y = torch.randint(0, 10, (16,))
    loss = F.cross_entropy(classifier(encoder(x)), y)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
