import torch
import torch.nn as nn
import torch.nn.functional as F


def down(cin, cout, norm=True):
    layers = [nn.Conv2d(cin, cout, 4, 2, 1, bias=not norm)]
    if norm:
        layers.append(nn.InstanceNorm2d(cout, affine=True))
    layers.append(nn.LeakyReLU(0.2))
    return layers


class TileCritic(nn.Module):
    def __init__(self, channels=3, base=32):
        super().__init__()
        self.net = nn.Sequential(
            *down(channels, base, norm=False),
            *down(base, base * 2),
            *down(base * 2, base * 4),
            nn.Conv2d(base * 4, 1, 4, 1, 0),
        )

    def forward(self, tiles):
        return self.net(tiles).flatten()


class TileGenerator(nn.Module):
    def __init__(self, z_dim=64, channels=3, base=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(z_dim, base * 4, 4, 1, 0),
            nn.ReLU(),
            nn.ConvTranspose2d(base * 4, base * 2, 4, 2, 1),
            nn.ReLU(),
            nn.ConvTranspose2d(base * 2, base, 4, 2, 1),
            nn.ReLU(),
            nn.ConvTranspose2d(base, channels, 4, 2, 1),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z[:, :, None, None])


def critic_step(critic, opt, real, fake):
    ones = torch.ones(real.size(0))
    zeros = torch.zeros(fake.size(0))
    loss = F.binary_cross_entropy_with_logits(critic(real), ones) + \
        F.binary_cross_entropy_with_logits(critic(fake.detach()), zeros)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    tile = 48
    gen, critic = TileGenerator(), TileCritic()
    opt_d = torch.optim.Adam(critic.parameters(), lr=2e-4, betas=(0.5, 0.999))
    real = torch.rand(8, 3, tile, tile) * 2 - 1
    fake = gen(torch.randn(8, 64))
    print(critic_step(critic, opt_d, real, fake))
