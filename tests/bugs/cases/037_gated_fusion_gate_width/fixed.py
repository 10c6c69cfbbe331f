import torch
import torch.nn as nn


class GatedFusion(nn.Module):
    """Fuses two modality embeddings with a learned element-wise gate."""

    def __init__(self, dim, out_dim=None, dropout=0.1):
        super().__init__()
        out_dim = out_dim or dim
        self.gate = nn.Linear(3 * dim, 2 * dim)
        self.out = nn.Sequential(nn.Dropout(dropout), nn.Linear(2 * dim, out_dim))

    def forward(self, a, b):
        both = torch.cat([a, b], dim=-1)
        g = torch.sigmoid(self.gate(torch.cat([a, b, a * b], dim=-1)))
        return self.out(both * g)


class ImageTextClassifier(nn.Module):
    def __init__(self, img_dim, txt_dim, dim=256, num_classes=2):
        super().__init__()
        self.img = nn.Linear(img_dim, dim)
        self.txt = nn.Linear(txt_dim, dim)
        self.fusion = GatedFusion(dim, num_classes)

    def forward(self, img_feat, txt_feat):
        return self.fusion(torch.tanh(self.img(img_feat)), torch.tanh(self.txt(txt_feat)))
