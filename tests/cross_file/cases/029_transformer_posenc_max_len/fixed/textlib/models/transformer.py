import torch.nn as nn

from textlib.models.position import PositionalEncoding


class TransformerClassifier(nn.Module):
    def __init__(self, vocab_size, d_model=128, nhead=4, num_layers=2, num_classes=5, max_len=512):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.pos = PositionalEncoding(d_model, max_len=max_len)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.fc = nn.Linear(d_model, num_classes)

    def forward(self, tokens):
        x = self.pos(self.embed(tokens))
        x = self.encoder(x)
        return self.fc(x.mean(dim=1))
