import torch
import torch.nn as nn

SPRITE = 72
LATENT = 64


class SpriteGenerator(nn.Module):
    def __init__(self, latent=LATENT, size=SPRITE, ch=3):
        super().__init__()
        self.base = size // 8
        self.fc = nn.Linear(latent, 256 * self.base * self.base)
        ups = []
        for cin, cout in [(256, 128), (128, 64), (64, 32)]:
            ups += [nn.ConvTranspose2d(cin, cout, 4, 2, 1), nn.BatchNorm2d(cout), nn.ReLU(True)]
        self.ups = nn.Sequential(*ups, nn.Conv2d(32, ch, 3, padding=1), nn.Tanh())

    def forward(self, z):
        h = self.fc(z).view(z.size(0), 256, self.base, self.base)
        return self.ups(h)


class SpriteCritic(nn.Module):
    def __init__(self, size=SPRITE, ch=3):
        super().__init__()
        widths = [ch, 32, 64, 128, 256]
        blocks = []
        for cin, cout in zip(widths[:-1], widths[1:]):
            blocks += [nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.LeakyReLU(0.2, True)]
        self.features = nn.Sequential(*blocks)
        side = -(-size // 16)
        self.score = nn.Linear(256 * side * side, 1)

    def forward(self, img):
        h = self.features(img)
        return self.score(h.flatten(1))


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1, 1, 1)
    mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
    grads, = torch.autograd.grad(critic(mix).sum(), mix, create_graph=True)
    return ((grads.flatten(1).norm(dim=1) - 1) ** 2).mean()


if __name__ == "__main__":
    gen, critic = SpriteGenerator(), SpriteCritic()
    real = torch.rand(8, 3, SPRITE, SPRITE) * 2 - 1
    fake = gen(torch.randn(8, LATENT)).detach()
    loss = critic(fake).mean() - critic(real).mean() + 10.0 * gradient_penalty(critic, real, fake)
    loss.backward()
    print(loss.item())
