import argparse

import torch
import torch.nn as nn


def window_partition(x, window_size):
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    windows = x.permute(0, 1, 3, 2, 4, 5).contiguous()
    return windows.view(-1, window_size * window_size, C)


def window_reverse(windows, window_size, H, W):
    B = windows.shape[0] // ((H // window_size) * (W // window_size))
    x = windows.view(B, H // window_size, W // window_size, window_size, window_size, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


class SwinBlock(nn.Module):
    def __init__(self, dim, input_resolution, num_heads, window_size=7, mlp_ratio=2.0):
        super().__init__()
        self.input_resolution = input_resolution
        self.window_size = window_size
        if min(self.input_resolution) <= self.window_size:
            self.window_size = min(self.input_resolution)
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, num_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        hidden = int(dim * mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x):
        H, W = self.input_resolution
        B, L, C = x.shape
        shortcut = x
        x = self.norm1(x).view(B, H, W, C)
        windows = window_partition(x, self.window_size)
        attn_windows, _ = self.attn(windows, windows, windows, need_weights=False)
        x = window_reverse(attn_windows, self.window_size, H, W).view(B, H * W, C)
        x = shortcut + x
        return x + self.mlp(self.norm2(x))


class TinySwin(nn.Module):
    def __init__(self, img_size=64, patch_size=4, embed_dim=32, num_heads=4, window_size=7, num_classes=10):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, stride=patch_size)
        resolution = (img_size // patch_size, img_size // patch_size)
        self.blocks = nn.Sequential(
            SwinBlock(embed_dim, resolution, num_heads, window_size),
            SwinBlock(embed_dim, resolution, num_heads, window_size),
        )
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        x = self.blocks(x)
        return self.head(self.norm(x).mean(dim=1))


def run(window_size=7):
    model = TinySwin(window_size=window_size)
    images = torch.randn(2, 3, 64, 64)
    return model(images)


def build_parser():
    parser = argparse.ArgumentParser(description="Swin-style classifier on 64x64 images")
    parser.add_argument("--window-size", type=int, default=7)
    parser.add_argument("--drop-path", type=float, default=0.1)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.window_size not in range(1, 49):
        raise ValueError(f"window size {args.window_size} not in [1, 48]")
    logits = run(window_size=args.window_size)
    print(logits.shape)


if __name__ == "__main__":
    main()
