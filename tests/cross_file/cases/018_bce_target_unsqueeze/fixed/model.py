import torch.nn as nn


class SpamClassifier(nn.Module):
    def __init__(self, vocab_size=2000, dim=32):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.fc = nn.Linear(dim, 1)

    def forward(self, tokens):
        return self.fc(self.bag(tokens)).squeeze(1)
