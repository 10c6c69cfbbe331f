import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEncoding(nn.Module):
    def __init__(self, n_freqs, include_input=True):
        super().__init__()
        self.include_input = include_input
        self.register_buffer("freqs", 2.0 ** torch.arange(n_freqs) * torch.pi)

    def out_dim(self, in_dim):
        return in_dim * (2 * len(self.freqs) + int(self.include_input))

    def forward(self, x):
        xf = x[..., None] * self.freqs
        enc = torch.cat([torch.sin(xf), torch.cos(xf)], dim=-1).flatten(-2)
        return torch.cat([x, enc], dim=-1) if self.include_input else enc


class NeRF(nn.Module):
    def __init__(self, depth=8, width=256, n_freqs_xyz=10, n_freqs_dir=4):
        super().__init__()
        self.skip = depth // 2
        self.pe_xyz = PositionalEncoding(n_freqs_xyz)
        self.pe_dir = PositionalEncoding(n_freqs_dir)
        in_xyz = self.pe_xyz.out_dim(3)
        in_dir = self.pe_dir.out_dim(3)
        self.pts_linears = nn.ModuleList([nn.Linear(in_xyz, width)])
        for i in range(1, depth):
            in_features = width + in_xyz if i == self.skip + 1 else width
            self.pts_linears.append(nn.Linear(in_features, width))
        self.sigma = nn.Linear(width, 1)
        self.feature = nn.Linear(width, width)
        self.rgb = nn.Sequential(nn.Linear(width + in_dir, width // 2), nn.ReLU(), nn.Linear(width // 2, 3))

    def forward(self, xyz, viewdirs):
        x_enc = self.pe_xyz(xyz)
        d_enc = self.pe_dir(viewdirs)
        h = x_enc
        for i, layer in enumerate(self.pts_linears):
            h = F.relu(layer(h))
            if i == self.skip:
                h = torch.cat([x_enc, h], dim=-1)
        sigma = F.relu(self.sigma(h))
        rgb = torch.sigmoid(self.rgb(torch.cat([self.feature(h), d_enc], dim=-1)))
        return rgb, sigma
