import torch
import torch.nn as nn


class ImageTower(nn.Module):
    def __init__(self, embed_dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.proj = nn.Linear(128, embed_dim)

    def forward(self, images):
        return self.proj(self.net(images))


class TextTower(nn.Module):
    def __init__(self, vocab_size, embed_dim, width=128, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, width, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, max_len, width))
        layer = nn.TransformerEncoderLayer(width, 4, 4 * width, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.proj = nn.Linear(width, embed_dim)

    def forward(self, ids, attention_mask):
        x = self.tok(ids) + self.pos[:, : ids.size(1)]
        x = self.encoder(x, src_key_padding_mask=~attention_mask)
        return self.proj(x[:, 0])
