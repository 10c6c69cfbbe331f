import torch
import torch.nn as nn


def mlp1d(channels):
    layers = []
    for c_in, c_out in zip(channels[:-1], channels[1:]):
        layers += [nn.Conv1d(c_in, c_out, kernel_size=1), nn.BatchNorm1d(c_out), nn.ReLU()]
    return nn.Sequential(*layers)


class PointNetSeg(nn.Module):
    def __init__(self, in_dim=3, num_parts=50):
        super().__init__()
        self.local = mlp1d([in_dim, 64, 64])
        self.global_feat = mlp1d([64, 128, 1024])
        self.head = nn.Sequential(
            mlp1d([64 + 1024, 512, 256, 128]),
            nn.Conv1d(128, num_parts, kernel_size=1),
        )

    def forward(self, points):
        b, _, n = points.shape
        local = self.local(points)
        g = self.global_feat(local).max(dim=2)[0]
        g = g.unsqueeze(2).repeat(1, 1, n)
        x = torch.cat([local, g], dim=1)
        return self.head(x).transpose(1, 2)
