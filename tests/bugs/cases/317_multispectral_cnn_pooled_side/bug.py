from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class SatConfig:
    bands: int = 13
    img_size: int = 64
    widths: tuple = (32, 64, 128, 128)
    hidden: int = 256
    n_classes: int = 10
    dropout: float = 0.3


class MultispectralCNN(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        blocks, in_ch = [], cfg.bands
        for w in cfg.widths:
            blocks += [nn.Conv2d(in_ch, w, 3, padding=1), nn.BatchNorm2d(w), nn.ReLU(inplace=True), nn.MaxPool2d(2)]
            in_ch = w
        self.features = nn.Sequential(*blocks)
        side = cfg.img_size // 2 ** (len(cfg.widths) - 1)
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(cfg.dropout),
            nn.Linear(in_ch * side * side, cfg.hidden),
            nn.ReLU(inplace=True),
            nn.Linear(cfg.hidden, cfg.n_classes),
        )

    def forward(self, x):
        return self.classifier(self.features(x))


def normalize_bands(x, eps=1e-6):
    mean = x.mean(dim=(0, 2, 3), keepdim=True)
    std = x.std(dim=(0, 2, 3), keepdim=True)
    return (x - mean) / (std + eps)


if __name__ == "__main__":
    cfg = SatConfig()
    model = MultispectralCNN(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    tiles = torch.rand(8, cfg.bands, cfg.img_size, cfg.img_size) * 3000.0
    labels = torch.randint(0, cfg.n_classes, (8,))
    loss = F.cross_entropy(model(normalize_bands(tiles)), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
