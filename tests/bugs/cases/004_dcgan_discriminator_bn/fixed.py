import torch
import torch.nn as nn

NDF = 64


class Discriminator(nn.Module):
    def __init__(self, nc=3, ndf=NDF, n_layers=3):
        super().__init__()
        layers = [nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True)]
        ch = ndf
        for i in range(1, n_layers + 1):
            out_ch = ndf * 2 ** i
            layers += [
                nn.Conv2d(ch, out_ch, 4, 2, 1, bias=False),
                nn.BatchNorm2d(out_ch),
                nn.LeakyReLU(0.2, inplace=True),
            ]
            ch = out_ch
        layers += [nn.Conv2d(ch, 1, 4, 1, 0, bias=False), nn.Sigmoid()]
        self.main = nn.Sequential(*layers)

    def forward(self, img):
        return self.main(img).view(-1, 1).squeeze(1)


if __name__ == "__main__":
    netD = Discriminator()
    fake = torch.randn(4, 3, 64, 64)
    print(netD(fake).shape)
