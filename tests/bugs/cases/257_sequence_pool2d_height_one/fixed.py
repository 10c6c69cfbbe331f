import torch
import torch.nn as nn
import torch.nn.functional as F


class DownsamplingEncoder(nn.Module):
    def __init__(self, in_features, channels=64, n_stages=3):
        super().__init__()
        self.inp = nn.Conv1d(in_features, channels, 1)
        self.stages = nn.ModuleList([nn.Conv1d(channels, channels, 5, padding=2) for _ in range(n_stages)])
        self.norms = nn.ModuleList([nn.GroupNorm(1, channels) for _ in range(n_stages)])

    def forward(self, x):
        x = self.inp(x.transpose(1, 2))
        for conv, norm in zip(self.stages, self.norms):
            x = F.gelu(norm(conv(x))) + x
            x = F.max_pool2d(x.unsqueeze(2), (1, 2)).squeeze(2)
        return x.transpose(1, 2)
