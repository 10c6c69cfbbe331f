import torch
import torch.nn.functional as F

from .model import TextCNN


def main():
    torch.manual_seed(0)
    model = TextCNN(vocab_size=3000)
    tokens = torch.randint(1, 3000, (8, 50))
    labels = torch.randint(0, 2, (8,))
    loss = F.cross_entropy(model(tokens), labels)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
