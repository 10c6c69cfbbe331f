import torch
import torch.nn as nn


def up_block(cin, cout):
    return nn.Sequential(
        nn.ConvTranspose2d(cin, cout, 4, 2, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(True),
    )


class SketchGenerator(nn.Module):
    def __init__(self, z_dim=96, widths=(256, 128, 64, 32), out_ch=1):
        super().__init__()
        self.project = nn.Sequential(nn.Linear(z_dim, widths[0] * 4 * 4), nn.ReLU(True))
        self.ups = nn.Sequential(*[up_block(a, b) for a, b in zip(widths[:-1], widths[1:])])
        self.to_img = nn.Sequential(nn.Conv2d(widths[-1], out_ch, 3, padding=1), nn.Tanh())

    def forward(self, z):
        x = self.project(z).view(z.size(0), -1, 4, 4)
        return self.to_img(self.ups(x))


if __name__ == "__main__":
    gen = SketchGenerator()
    z = torch.randn(24, 96)
    sketches = gen(z)
    print(sketches.shape)
