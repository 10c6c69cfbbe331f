import torch
import torch.nn as nn
import torch.nn.functional as F


class ViTSegmenter(nn.Module):
    def __init__(self, num_classes=21, in_chans=3, patch=16, dim=192, depth=2, heads=3):
        super().__init__()
        self.patch = patch
        self.dim = dim
        self.patch_embed = nn.Conv2d(in_chans, dim, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 4, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Conv2d(dim, num_classes, kernel_size=1)

    def forward(self, img):
        b, _, h, w = img.shape
        gh, gw = h // self.patch, w // self.patch
        x = self.patch_embed(img).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(b, -1, -1), x], dim=1)
        x = self.norm(self.encoder(x))
        x = x.reshape(b, gh, gw, self.dim).permute(0, 3, 1, 2)
        logits = self.head(x)
        return F.interpolate(logits, size=(h, w), mode="bilinear", align_corners=False)
