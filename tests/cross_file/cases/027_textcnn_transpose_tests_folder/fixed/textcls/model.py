import torch
import torch.nn as nn

from .layers import ConvPool1d


class TextCNN(nn.Module):
    def __init__(self, vocab_size, emb_dim=128, num_filters=64, kernel_sizes=(3, 4, 5), num_classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.convs = nn.ModuleList(ConvPool1d(emb_dim, num_filters, k) for k in kernel_sizes)
        self.fc = nn.Linear(num_filters * len(kernel_sizes), num_classes)

    def forward(self, tokens):
        x = self.embed(tokens).transpose(1, 2)
        feats = torch.cat([conv(x) for conv in self.convs], dim=1)
        return self.fc(feats)
