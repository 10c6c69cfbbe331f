import torch
import torch.nn as nn
import torch.nn.functional as F


class MLPProjection(nn.Module):
    def __init__(self, in_dim, embed_dim):
        super().__init__()
        self.proj = nn.Linear(in_dim, embed_dim)

    def forward(self, x):
        return self.proj(x.flatten(2).transpose(1, 2))


class SegFormerHead(nn.Module):
    def __init__(self, in_dims=(32, 64, 160, 256), embed_dim=256, num_classes=19, dropout=0.1):
        super().__init__()
        self.projections = nn.ModuleList(MLPProjection(d, embed_dim) for d in in_dims)
        self.fuse = nn.Sequential(
            nn.Conv2d(len(in_dims) * embed_dim, embed_dim, 1, bias=False),
            nn.BatchNorm2d(embed_dim),
            nn.ReLU(inplace=True),
        )
        self.dropout = nn.Dropout2d(dropout)
        self.classifier = nn.Conv2d(embed_dim, num_classes, 1)

    def forward(self, features):
        n, _, h, w = features[0].shape
        outs = []
        for feat, proj in zip(features[::-1], list(self.projections)[::-1]):
            fh, fw = feat.shape[2:]
            tokens = proj(feat)
            fmap = tokens.permute(0, 3, 1, 2).reshape(n, -1, fh, fw)
            outs.append(F.interpolate(fmap, size=(h, w), mode="bilinear", align_corners=False))
        x = self.fuse(torch.cat(outs, dim=1))
        return self.classifier(self.dropout(x))


def fake_mit_features(batch, height, width, dims=(32, 64, 160, 256)):
    return [torch.randn(batch, d, height // s, width // s) for d, s in zip(dims, (4, 8, 16, 32))]


def segmentation_loss(head, features, masks):
    logits = head(features)
    logits = F.interpolate(logits, size=masks.shape[-2:], mode="bilinear", align_corners=False)
    return F.cross_entropy(logits, masks, ignore_index=255)
