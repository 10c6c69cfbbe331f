import torch
import torch.nn as nn
import torch.nn.functional as F


class CondInstanceNorm(nn.Module):
    def __init__(self, channels, n_styles):
        super().__init__()
        self.n_styles = n_styles
        self.norm = nn.InstanceNorm2d(channels, affine=False)
        self.scale = nn.Parameter(torch.ones(channels, n_styles))
        self.shift = nn.Parameter(torch.zeros(channels, n_styles))

    def forward(self, x, style_weights):
        h = self.norm(x)
        scale = style_weights @ self.scale.t()
        shift = style_weights @ self.shift.t()
        return h * scale[:, :, None, None] + shift[:, :, None, None]


class StyleNet(nn.Module):
    def __init__(self, n_styles=3, width=32):
        super().__init__()
        self.n_styles = n_styles
        self.enc = nn.Conv2d(3, width, 9, padding=4)
        self.cin1 = CondInstanceNorm(width, n_styles)
        self.mid = nn.Conv2d(width, width, 3, padding=1)
        self.cin2 = CondInstanceNorm(width, n_styles)
        self.dec = nn.Conv2d(width, 3, 9, padding=4)

    def forward(self, img, style_id):
        weights = F.one_hot(style_id, self.n_styles).float()
        h = F.relu(self.cin1(self.enc(img), weights))
        h = F.relu(self.cin2(self.mid(h), weights))
        return torch.sigmoid(self.dec(h))


if __name__ == "__main__":
    net = StyleNet(n_styles=3)
    photos = torch.rand(2, 3, 64, 64)
    styles = torch.tensor([0, 2])
    out = net(photos, styles)
    print(out.shape)
