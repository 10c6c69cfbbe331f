import torch
import torch.nn.functional as F

from model import SpamClassifier
from utils import accuracy, make_targets


def main():
    torch.manual_seed(0)
    model = SpamClassifier()
    tokens = torch.randint(0, 2000, (16, 40))
    labels = torch.randint(0, 2, (16,))
    targets = make_targets(labels)
    logits = model(tokens)
    loss = F.binary_cross_entropy_with_logits(logits, targets)
    loss.backward()
    print("loss", loss.item(), "acc", accuracy(logits, targets))


if __name__ == "__main__":
    main()
