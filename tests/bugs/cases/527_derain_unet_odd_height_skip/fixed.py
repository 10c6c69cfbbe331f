import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1),
        nn.ReLU(inplace=True),
    )


class DerainNet(nn.Module):
    def __init__(self, channels=3, width=24):
        super().__init__()
        self.enc1 = conv_block(channels, width)
        self.pool = nn.MaxPool2d(2)
        self.enc2 = conv_block(width, width * 2)
        self.up = nn.ConvTranspose2d(width * 2, width, kernel_size=2, stride=2)
        self.dec1 = conv_block(width * 2, width)
        self.head = nn.Conv2d(width, channels, 1)

    def forward(self, frame):
        e1 = self.enc1(frame)
        e2 = self.enc2(self.pool(e1))
        u = F.pad(self.up(e2), (0, e1.size(3) - 2 * e2.size(3), 0, e1.size(2) - 2 * e2.size(2)))
        d = self.dec1(torch.cat([u, e1], dim=1))
        return frame - self.head(d)


if __name__ == "__main__":
    net = DerainNet()
    net.eval()
    dashcam = torch.rand(2, 3, 121, 160)
    with torch.no_grad():
        clean = net(dashcam)
    print(clean.shape)
