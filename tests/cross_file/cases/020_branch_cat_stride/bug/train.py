import torch

from model import MixNet


def main():
    torch.manual_seed(0)
    net = MixNet(num_classes=10)
    x = torch.randn(8, 3, 32, 32)
    out = net(x)
    print(out.shape)


if __name__ == "__main__":
    main()
