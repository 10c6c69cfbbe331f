import torch

import model


def main():
    torch.manual_seed(0)
    net = model.Net(num_classes=10)
    net.eval()
    x = torch.randn(4, 3, 32, 32)
    with torch.no_grad():
        logits = net(x)
    print(logits.shape)


if __name__ == "__main__":
    main()
