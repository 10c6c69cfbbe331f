import math
import torch


def sample_block(xyz, rgb, labels, num_points=4096, block_size=1.0):
    center = xyz[torch.randint(0, xyz.size(0), (1,))].squeeze(0)
    lo = center - block_size / 2
    hi = center + block_size / 2
    inside = ((xyz[:, :2] >= lo[:2]) & (xyz[:, :2] <= hi[:2])).all(dim=1)
    idx = inside.nonzero().squeeze(1)
    if idx.numel() == 0:
        idx = torch.arange(xyz.size(0))
    choice = idx[torch.randint(0, idx.numel(), (num_points,))]
    return xyz[choice], rgb[choice], labels[choice]


def normalize_block(xyz, rgb, room_max, angle=0.0):
    """Builds the 9-dim PointNet input: centred xyz, rgb in [0, 1], room-normalised xyz."""
    room = xyz / room_max
    c, s = math.cos(angle), math.sin(angle)
    rot = torch.tensor([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    xyz = xyz @ rot.T
    feats = torch.cat([xyz, rgb / 255.0], dim=-1)
    centroid = xyz.mean(dim=0)
    radius = (xyz - centroid).norm(dim=1).max().clamp_min(1e-6)
    local = torch.cat([(xyz - centroid) / radius, feats[:, 3:]], dim=-1)
    return torch.cat([local, room], dim=-1)


def make_batch(xyz, rgb, labels, batch_size=8, num_points=4096):
    room_max = xyz.max(dim=0).values
    points, targets = [], []
    for _ in range(batch_size):
        bxyz, brgb, blab = sample_block(xyz, rgb, labels, num_points)
        angle = float(torch.rand(()) * 2 * math.pi)
        points.append(normalize_block(bxyz, brgb, room_max, angle))
        targets.append(blab)
    return torch.stack(points).transpose(1, 2), torch.stack(targets)


def synthetic_room(n=20000, n_classes=13):
    xyz = torch.rand(n, 3) * torch.tensor([6.0, 8.0, 3.0])
    rgb = torch.randint(0, 256, (n, 3)).float()
    labels = torch.randint(0, n_classes, (n,))
    return xyz, rgb, labels
