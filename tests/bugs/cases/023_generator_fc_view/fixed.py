import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, z_dim=100, ngf=64, channels=3):
        super().__init__()
        self.ngf = ngf
        self.fc = nn.Sequential(
            nn.Linear(z_dim, ngf * 8 * 4 * 4),
            nn.ReLU(True),
        )
        self.up = nn.Sequential(
            nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, channels, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, z):
        x = self.fc(z)
        x = x.view(z.size(0), self.ngf * 8, 4, 4)
        return self.up(x)
