import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, latent_dim=100, base_ch=256, n_up=3, out_ch=3):
        super().__init__()
        self.base_ch = base_ch
        self.fc = nn.Linear(latent_dim, base_ch * 4 * 4)
        layers, ch = [], base_ch
        for _ in range(n_up - 1):
            layers += [nn.ConvTranspose2d(ch, ch // 2, 4, 2, 1), nn.BatchNorm2d(ch // 2), nn.ReLU(True)]
            ch //= 2
        layers += [nn.ConvTranspose2d(ch, out_ch, 4, 2, 1), nn.Tanh()]
        self.net = nn.Sequential(*layers)

    def forward(self, z):
        h = self.fc(z).view(z.size(0), self.base_ch, 4, 4)
        return self.net(h)
