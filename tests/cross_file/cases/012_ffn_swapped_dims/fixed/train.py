import torch

from model import Encoder


def main():
    torch.manual_seed(0)
    enc = Encoder(d_model=128, n_heads=4, d_ff=512, depth=2)
    x = torch.randn(4, 20, 128)
    y = enc(x)
    print(y.shape, y.mean().item())


if __name__ == "__main__":
    main()
