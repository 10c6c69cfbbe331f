import argparse
import math

import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, image_size, patch_size, in_chans=3, embed_dim=32):
        super().__init__()
        self.num_patches = math.ceil(image_size / patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class VisionTransformer(nn.Module):
    def __init__(self, image_size=32, patch_size=4, embed_dim=32, depth=1, num_heads=4, num_classes=10):
        super().__init__()
        self.patch_embed = PatchEmbed(image_size, patch_size, embed_dim=embed_dim)
        num_patches = self.patch_embed.num_patches
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 1, embed_dim))
        layer = nn.TransformerEncoderLayer(embed_dim, num_heads, dim_feedforward=2 * embed_dim, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers=depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1)
        x = x + self.pos_embed
        x = self.blocks(x)
        return self.head(self.norm(x[:, 0]))


def run(patch_size=4, image_size=32):
    model = VisionTransformer(image_size=image_size, patch_size=patch_size)
    images = torch.randn(1, 3, image_size, image_size)
    return model(images)


def build_parser():
    parser = argparse.ArgumentParser(description="ViT from scratch on small images")
    parser.add_argument("--patch-size", type=int, default=4)
    parser.add_argument("--image-size", type=int, default=32, choices=[24, 28, 32, 36])
    parser.add_argument("--warmup-epochs", type=int, default=5)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.patch_size < 1 or args.patch_size > 32:
        raise ValueError(f"patch size must be in [1, 32], got {args.patch_size}")
    logits = run(patch_size=args.patch_size, image_size=args.image_size)
    print(tuple(logits.shape))


if __name__ == "__main__":
    main()
