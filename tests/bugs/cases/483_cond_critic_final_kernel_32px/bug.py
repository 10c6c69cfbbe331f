import torch
import torch.nn as nn
import torch.nn.functional as F

IMG = 32
N_CLASSES = 10


class LabelPlane(nn.Module):
    def __init__(self, n_classes, size):
        super().__init__()
        self.size = size
        self.embed = nn.Embedding(n_classes, size * size)

    def forward(self, labels):
        return self.embed(labels).view(-1, 1, self.size, self.size)


class ConditionalCritic(nn.Module):
    def __init__(self, img_ch=3, ndf=48, n_classes=N_CLASSES, size=IMG):
        super().__init__()
        self.label_plane = LabelPlane(n_classes, size)
        layers, cin = [], img_ch + 1
        for mult in (1, 2, 4, 8):
            layers += [nn.Conv2d(cin, ndf * mult, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, True)]
            cin = ndf * mult
        self.body = nn.Sequential(*layers)
        self.score = nn.Conv2d(cin, 1, 4, 1, 0)

    def forward(self, images, labels):
        x = torch.cat([images, self.label_plane(labels)], dim=1)
        return self.score(self.body(x)).flatten()


def hinge_d_loss(critic, real, fake, labels):
    return F.relu(1 - critic(real, labels)).mean() + F.relu(1 + critic(fake, labels)).mean()


if __name__ == "__main__":
    critic = ConditionalCritic()
    real = torch.rand(16, 3, IMG, IMG) * 2 - 1
    fake = torch.rand(16, 3, IMG, IMG) * 2 - 1
    labels = torch.randint(0, N_CLASSES, (16,))
    loss = hinge_d_loss(critic, real, fake, labels)
    loss.backward()
    print(loss.item())
