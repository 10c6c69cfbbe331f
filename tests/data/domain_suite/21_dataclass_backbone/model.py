from dataclasses import dataclass
from typing import Literal

import torch
import torch.nn as nn

STAGE_CHANNELS = {
    "tiny": [8],
    "small": [8, 16],
    "base": [16, 32],
    "large": [16, 32, 64],
}
FEATURE_DIMS = {"tiny": 8, "small": 16, "base": 32, "large": 48}


@dataclass
class ModelConfig:
    backbone: Literal["tiny", "small", "base", "large"] = "base"
    num_classes: int = 10
    dropout: float = 0.1


class Backbone(nn.Module):
    def __init__(self, channels):
        super().__init__()
        layers = []
        in_ch = 3
        for out_ch in channels:
            layers += [nn.Conv2d(in_ch, out_ch, 3, stride=2, padding=1), nn.BatchNorm2d(out_ch), nn.ReLU()]
            in_ch = out_ch
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x).mean(dim=(2, 3))


class Classifier(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.backbone = Backbone(STAGE_CHANNELS[cfg.backbone])
        self.dropout = nn.Dropout(cfg.dropout)
        self.head = nn.Linear(FEATURE_DIMS[cfg.backbone], cfg.num_classes)

    def forward(self, x):
        return self.head(self.dropout(self.backbone(x)))


def run(backbone="base"):
    cfg = ModelConfig(backbone=backbone)
    model = Classifier(cfg)
    return model(torch.randn(2, 3, 32, 32))


def main():
    cfg = ModelConfig()
    out = run(backbone=cfg.backbone)
    print(cfg, out.shape)


if __name__ == "__main__":
    main()
