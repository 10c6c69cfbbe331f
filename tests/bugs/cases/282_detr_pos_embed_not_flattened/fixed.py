import math

import torch
import torch.nn as nn


class PositionEmbeddingSine(nn.Module):
    def __init__(self, num_pos_feats=128, temperature=10000):
        super().__init__()
        self.num_pos_feats = num_pos_feats
        self.temperature = temperature

    def forward(self, mask):
        not_mask = ~mask
        y_embed = not_mask.cumsum(1, dtype=torch.float32)
        x_embed = not_mask.cumsum(2, dtype=torch.float32)
        eps = 1e-6
        y_embed = y_embed / (y_embed[:, -1:, :] + eps) * 2 * math.pi
        x_embed = x_embed / (x_embed[:, :, -1:] + eps) * 2 * math.pi
        dim_t = torch.arange(self.num_pos_feats, dtype=torch.float32)
        dim_t = self.temperature ** (2 * (dim_t // 2) / self.num_pos_feats)
        pos_x = x_embed[:, :, :, None] / dim_t
        pos_y = y_embed[:, :, :, None] / dim_t
        pos_x = torch.stack((pos_x[:, :, :, 0::2].sin(), pos_x[:, :, :, 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[:, :, :, 0::2].sin(), pos_y[:, :, :, 1::2].cos()), dim=4).flatten(3)
        return torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)


def backbone():
    return nn.Sequential(
        nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
        nn.MaxPool2d(3, 2, 1),
        nn.Conv2d(64, 128, 3, 2, 1, bias=False), nn.BatchNorm2d(128), nn.ReLU(inplace=True),
        nn.Conv2d(128, 256, 3, 2, 1, bias=False), nn.BatchNorm2d(256), nn.ReLU(inplace=True),
    )


class DETRLite(nn.Module):
    def __init__(self, num_classes=91, num_queries=100, d_model=256, nhead=8, num_layers=2):
        super().__init__()
        self.backbone = backbone()
        self.input_proj = nn.Conv2d(256, d_model, kernel_size=1)
        self.pos = PositionEmbeddingSine(d_model // 2)
        self.query_embed = nn.Embedding(num_queries, d_model)
        self.transformer = nn.Transformer(d_model, nhead, num_layers, num_layers, 4 * d_model, 0.1)
        self.class_embed = nn.Linear(d_model, num_classes + 1)
        self.bbox_embed = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, 4))

    def forward(self, images):
        feat = self.backbone(images)
        b, _, h, w = feat.shape
        mask = torch.zeros(b, h, w, dtype=torch.bool)
        pos = self.pos(mask)
        src = self.input_proj(feat).flatten(2).permute(2, 0, 1)
        pos = pos.flatten(2).permute(2, 0, 1)
        query = self.query_embed.weight.unsqueeze(1).repeat(1, b, 1)
        hs = self.transformer(src + pos, query)
        logits = self.class_embed(hs).transpose(0, 1)
        boxes = self.bbox_embed(hs).sigmoid().transpose(0, 1)
        return logits, boxes
