import torch.nn as nn


class PatchEncoder(nn.Module):
    def __init__(self, patch_size=8, width=768):
        super().__init__()
        self.proj = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size)
        self.norm = nn.LayerNorm(width)

    def forward(self, images):
        x = self.proj(images).flatten(2).transpose(1, 2)
        return self.norm(x)
