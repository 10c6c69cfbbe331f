import torch
import torch.nn.functional as F

from model import TextEncoder

SEQ_LEN = 100


def main():
    torch.manual_seed(0)
    model = TextEncoder()
    tokens = torch.randint(0, 5000, (4, SEQ_LEN))
    labels = torch.randint(0, 4, (4,))
    loss = F.cross_entropy(model(tokens), labels)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
