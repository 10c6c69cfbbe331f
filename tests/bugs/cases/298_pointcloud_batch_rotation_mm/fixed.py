import math

import torch


def random_z_rotation(batch):
    theta = torch.rand(batch) * 2 * math.pi
    c, s = torch.cos(theta), torch.sin(theta)
    zeros, ones = torch.zeros_like(theta), torch.ones_like(theta)
    return torch.stack([
        torch.stack([c, -s, zeros], dim=-1),
        torch.stack([s, c, zeros], dim=-1),
        torch.stack([zeros, zeros, ones], dim=-1),
    ], dim=1)


def normalize_clouds(points):
    points = points - points.mean(dim=1, keepdim=True)
    radius = points.norm(dim=-1).amax(dim=1).clamp_min(1e-6)
    return points / radius[:, None, None]


def augment(points, jitter=0.01, scale_range=(0.8, 1.25)):
    b, n, _ = points.shape
    points = normalize_clouds(points)
    rot = random_z_rotation(b)
    points = torch.bmm(points, rot.transpose(1, 2))
    scale = torch.empty(b, 1, 1).uniform_(*scale_range)
    noise = (jitter * torch.randn(b, n, 3)).clamp(-0.05, 0.05)
    return points * scale + noise


def sample_points(cloud, n_points):
    idx = torch.randperm(cloud.size(0))[:n_points]
    if idx.numel() < n_points:
        idx = torch.cat([idx, idx[torch.randint(0, idx.numel(), (n_points - idx.numel(),))]])
    return cloud[idx]


def collate_clouds(clouds, n_points=1024, train=True):
    batch = torch.stack([sample_points(c, n_points) for c in clouds])
    return augment(batch) if train else normalize_clouds(batch)
