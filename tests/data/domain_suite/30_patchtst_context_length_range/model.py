import argparse

import torch
import torch.nn as nn


class PatchTST(nn.Module):
    def __init__(self, patch_len=8, stride=4, d_model=32, n_heads=4, max_patches=10, horizon=12):
        super().__init__()
        self.patch_len = patch_len
        self.stride = stride
        self.value_embedding = nn.Linear(patch_len, d_model)
        self.pos_embedding = nn.Parameter(torch.randn(1, max_patches, d_model) * 0.02)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, horizon)

    def forward(self, series):
        B, C, L = series.shape
        patches = series.unfold(-1, self.patch_len, self.stride)
        patches = patches.reshape(B * C, -1, self.patch_len)
        tokens = self.value_embedding(patches)
        tokens = tokens + self.pos_embedding[:, : tokens.size(1)]
        tokens = self.encoder(tokens)
        forecast = self.head(tokens.mean(dim=1))
        return forecast.reshape(B, C, -1)


def run(context_length=32):
    model = PatchTST()
    series = torch.randn(2, 3, context_length)
    return model(series)


def build_parser():
    parser = argparse.ArgumentParser(description="Channel-independent patch transformer for forecasting")
    parser.add_argument("--context-length", type=int, default=32, help="length of the look-back window")
    parser.add_argument("--horizon", type=int, default=12)
    parser.add_argument("--lr", type=float, default=1e-4)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.context_length < 10 or args.context_length > 64:
        parser.error("--context-length must be between 10 and 64")
    forecast = run(context_length=args.context_length)
    print("forecast", tuple(forecast.shape))


if __name__ == "__main__":
    main()
