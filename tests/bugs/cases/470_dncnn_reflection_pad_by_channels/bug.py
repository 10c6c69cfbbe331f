import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualDenoiser(nn.Module):
    def __init__(self, image_ch=1, features=48, depth=6, kernel=5):
        super().__init__()
        layers = [nn.ReflectionPad2d(image_ch), nn.Conv2d(image_ch, features, kernel), nn.ReLU(inplace=True)]
        for _ in range(depth - 2):
            layers += [
                nn.Conv2d(features, features, 3, padding=1, bias=False),
                nn.BatchNorm2d(features),
                nn.ReLU(inplace=True),
            ]
        layers += [nn.Conv2d(features, image_ch, 3, padding=1)]
        self.body = nn.Sequential(*layers)

    def forward(self, noisy):
        noise = self.body(noisy)
        return noisy - noise


def add_gaussian_noise(clean, sigma=25.0 / 255.0):
    return clean + sigma * torch.randn_like(clean)


if __name__ == "__main__":
    model = ResidualDenoiser()
    clean = torch.rand(6, 1, 48, 48)
    noisy = add_gaussian_noise(clean)
    restored = model(noisy)
    loss = F.mse_loss(restored, clean)
    loss.backward()
    print(loss.item())
