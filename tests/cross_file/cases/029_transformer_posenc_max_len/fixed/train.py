import torch
import torch.nn.functional as F

from textlib.models.transformer import TransformerClassifier

MAX_TOKENS = 300


def main():
    torch.manual_seed(0)
    model = TransformerClassifier(vocab_size=10000, num_classes=5)
    tokens = torch.randint(0, 10000, (2, MAX_TOKENS))
    labels = torch.randint(0, 5, (2,))
    logits = model(tokens)
    loss = F.cross_entropy(logits, labels)
    print("loss", loss.item())


if __name__ == "__main__":
    main()
