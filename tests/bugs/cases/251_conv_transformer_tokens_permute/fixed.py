import torch
import torch.nn as nn


class ConvTransformer(nn.Module):
    def __init__(self, in_channels=3, num_classes=10, dim=64, nhead=4, depth=2):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(in_channels, dim // 2, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(dim // 2),
            nn.ReLU(inplace=True),
            nn.Conv2d(dim // 2, dim, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(dim),
            nn.ReLU(inplace=True),
        )
        layer = nn.TransformerEncoderLayer(dim, nhead, dim * 2, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth)
        self.query = nn.Parameter(torch.zeros(1, 1, dim))
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        feats = self.backbone(x)
        seq = feats.flatten(2).permute(0, 2, 1)
        seq = torch.cat([self.query.expand(seq.shape[0], -1, -1), seq], dim=1)
        return self.head(self.encoder(seq)[:, 0])
