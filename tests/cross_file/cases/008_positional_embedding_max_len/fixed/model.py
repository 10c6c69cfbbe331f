import torch.nn as nn

from layers import *


class TextEncoder(nn.Module):
    def __init__(self, vocab_size=5000, dim=128, max_len=128, num_classes=4):
        super().__init__()
        self.tokens = TokenEmbedding(vocab_size, dim)
        self.positions = LearnedPositionalEmbedding(max_len, dim)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=256, batch_first=True),
            num_layers=2,
        )
        self.classifier = nn.Linear(dim, num_classes)

    def forward(self, tokens):
        x = self.positions(self.tokens(tokens))
        x = self.encoder(x)
        return self.classifier(x.mean(dim=1))
