import argparse

import torch
import torch.nn as nn


def patchify(images, patch_size):
    B, C, H, W = images.shape
    p = patch_size
    x = images.reshape(B, C, H // p, p, W // p, p)
    x = x.permute(0, 2, 4, 1, 3, 5)
    return x.reshape(B, (H // p) * (W // p), C * p * p)


class TinyViT(nn.Module):
    def __init__(self, patch_size=4, in_chans=3, dim=32, num_classes=10):
        super().__init__()
        self.patch_size = patch_size
        self.embed = nn.Linear(in_chans * patch_size * patch_size, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images):
        tokens = self.embed(patchify(images, self.patch_size))
        tokens = self.encoder(tokens)
        return self.head(tokens.mean(dim=1))


def run(patch_size=4):
    model = TinyViT(patch_size=patch_size)
    images = torch.randn(2, 3, 24, 24)
    return model(images)


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--patch-size", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 2 <= args.patch_size <= 8:
        parser.error("--patch-size must be between 2 and 8")
    out = run(patch_size=args.patch_size)
    print(out.shape)


if __name__ == "__main__":
    main()
