from dataclasses import dataclass
from typing import Literal

import torch
import torch.nn as nn


@dataclass
class ViTConfig:
    image_size: Literal[16, 28, 32] = 32
    patch_size: Literal[2, 3, 4, 8] = 4
    dim: int = 32
    num_classes: int = 10


class PatchEmbed(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        self.proj = nn.Conv2d(3, cfg.dim, kernel_size=cfg.patch_size, stride=cfg.patch_size)
        self.num_patches = cfg.image_size ** 2 // cfg.patch_size ** 2

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class ViT(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        self.patch_embed = PatchEmbed(cfg)
        self.pos_embed = nn.Parameter(torch.zeros(1, self.patch_embed.num_patches, cfg.dim))
        self.norm = nn.LayerNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.num_classes)

    def forward(self, x):
        x = self.patch_embed(x)
        x = x + self.pos_embed
        x = self.norm(x).mean(dim=1)
        return self.head(x)


def run(image_size=32, patch_size=4):
    cfg = ViTConfig(image_size=image_size, patch_size=patch_size)
    model = ViT(cfg)
    images = torch.randn(2, 3, cfg.image_size, cfg.image_size)
    return model(images)


def main():
    cfg = ViTConfig()
    logits = run(image_size=cfg.image_size, patch_size=cfg.patch_size)
    print(logits.shape)


if __name__ == "__main__":
    main()
