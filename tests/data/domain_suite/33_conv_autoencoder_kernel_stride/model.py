import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class DenoisingAutoencoder1d(nn.Module):
    def __init__(self, kernel_size=4, stride=2, channels=16, latent=8):
        super().__init__()
        padding = kernel_size // 2
        self.encoder = nn.Sequential(
            nn.Conv1d(1, channels, kernel_size, stride=stride, padding=padding),
            nn.ReLU(),
            nn.Conv1d(channels, latent, 3, padding=1),
            nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.Conv1d(latent, channels, 3, padding=1),
            nn.ReLU(),
            nn.ConvTranspose1d(
                channels, 1, kernel_size, stride=stride, padding=padding, output_padding=stride - 1
            ),
        )

    def forward(self, noisy):
        return self.decoder(self.encoder(noisy))


def run(kernel_size=4, stride=2):
    model = DenoisingAutoencoder1d(kernel_size=kernel_size, stride=stride)
    clean = torch.randn(2, 1, 64)
    noisy = clean + 0.1 * torch.randn_like(clean)
    recon = model(noisy)
    return F.mse_loss(recon, clean)


def build_parser():
    parser = argparse.ArgumentParser(description="1D convolutional denoising autoencoder")
    parser.add_argument("--kernel-size", type=int, default=3)
    parser.add_argument("--stride", type=int, default=2)
    parser.add_argument("--noise", type=float, default=0.1)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 1 <= args.kernel_size <= 16 or not 1 <= args.stride <= 6:
        parser.error("expected 1 <= kernel-size <= 16 and 1 <= stride <= 6")
    loss = run(kernel_size=args.kernel_size, stride=args.stride)
    print(f"reconstruction loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
