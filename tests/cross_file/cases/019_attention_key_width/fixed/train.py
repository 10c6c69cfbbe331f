import torch

import model


def main():
    torch.manual_seed(0)
    layer = model.SelfAttention(dim=64, n_heads=4)
    x = torch.randn(2, 10, 64)
    y = layer(x)
    y.sum().backward()
    print(y.shape)


if __name__ == "__main__":
    main()
