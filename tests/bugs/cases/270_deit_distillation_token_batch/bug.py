import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, img_size=224, patch_size=16, in_chans=3, embed_dim=768):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, patch_size)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class DistilledViT(nn.Module):
    def __init__(self, img_size=224, patch_size=16, embed_dim=192, depth=12, heads=3, num_classes=1000):
        super().__init__()
        self.patch_embed = PatchEmbed(img_size, patch_size, 3, embed_dim)
        n = self.patch_embed.num_patches
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.dist_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, n + 2, embed_dim))
        layer = nn.TransformerEncoderLayer(embed_dim, heads, embed_dim * 4, activation="gelu", batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes)
        self.head_dist = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x)
        b = x.shape[0]
        cls = self.cls_token.expand(b, -1, -1)
        dist = self.dist_token
        x = torch.cat([cls, dist, x], dim=1) + self.pos_embed
        x = self.norm(self.blocks(x))
        logits, logits_dist = self.head(x[:, 0]), self.head_dist(x[:, 1])
        if self.training:
            return logits, logits_dist
        return (logits + logits_dist) / 2


if __name__ == "__main__":
    model = DistilledViT(img_size=96, patch_size=16, depth=2, num_classes=10)
    images = torch.randn(16, 3, 96, 96)
    out, out_dist = model(images)
    print(out.shape, out_dist.shape)
