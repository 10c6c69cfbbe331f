import torch
import torch.nn as nn
import torch.nn.functional as F


def events_to_voxels(events, n_bins, height, width):
    """events: [N, 4] rows of (t in [0, 1), x, y, polarity)."""
    grid = torch.zeros(n_bins, 2, height, width)
    t_bin = (events[:, 0] * n_bins).long().clamp(max=n_bins - 1)
    x, y, p = events[:, 1].long(), events[:, 2].long(), events[:, 3].long()
    grid.index_put_((t_bin, p, y, x), torch.ones(len(events)), accumulate=True)
    return grid


class GestureNet(nn.Module):
    def __init__(self, n_classes=11):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(2, 32, 5, stride=2, padding=2), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(64, n_classes)

    def forward(self, frames):
        return self.fc(self.features(frames).flatten(1))


def random_recording(n_events=5000, size=64):
    t = torch.rand(n_events).sort().values
    xy = torch.randint(0, size, (n_events, 2)).float()
    pol = torch.randint(0, 2, (n_events, 1)).float()
    return torch.cat([t[:, None], xy, pol], dim=1)


if __name__ == "__main__":
    batch = torch.stack([events_to_voxels(random_recording(), 10, 64, 64) for _ in range(4)])
    labels = torch.randint(0, 11, (4,))
    net = GestureNet()
    loss = F.cross_entropy(net(batch.sum(dim=1)), labels)
    loss.backward()
    print(loss.item())
