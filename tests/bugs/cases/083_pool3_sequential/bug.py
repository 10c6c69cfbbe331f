import torch
import torch.nn as nn

IMG_SIZE = 32


def conv_pool(in_ch, out_ch, pool):
    return nn.Sequential(nn.Conv2d(in_ch, out_ch, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(pool))


class CompactNet(nn.Module):
    def __init__(self, n_classes=10, widths=(32, 64, 128, 256), pool=3):
        super().__init__()
        chans = [3] + list(widths)
        self.body = nn.Sequential(*[conv_pool(a, b, pool) for a, b in zip(chans[:-1], chans[1:])])
        side = IMG_SIZE // pool ** len(widths)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(widths[-1] * max(side, 1) ** 2, n_classes))

    def forward(self, x):
        return self.head(self.body(x))


if __name__ == "__main__":
    net = CompactNet()
    print(net(torch.randn(4, 3, IMG_SIZE, IMG_SIZE)).shape)
