import torch
import torch.nn as nn


class RigidTransform(nn.Module):
    """Learnable rigid/affine transform applied to point clouds [batch, n_points, 3]."""

    def __init__(self):
        super().__init__()
        self.matrix = nn.Parameter(torch.eye(4))

    def forward(self, points):
        ones = torch.ones(*points.shape[:-1], 1, dtype=points.dtype)
        homo = torch.cat([points, ones], dim=-1)
        out = homo @ self.matrix.transpose(0, 1)
        return out[..., :3] / out[..., 3:].clamp_min(1e-8)


class PointRegistration(nn.Module):
    def __init__(self, n_steps=2):
        super().__init__()
        self.steps = nn.ModuleList([RigidTransform() for _ in range(n_steps)])

    def forward(self, source):
        for step in self.steps:
            source = step(source)
        return source
