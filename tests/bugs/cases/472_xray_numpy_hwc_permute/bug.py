import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def to_tensor_chw(pixels, size=128):
    arr = pixels.astype(np.float32) / 255.0
    t = torch.from_numpy(arr).permute(2, 0, 1)
    t = F.interpolate(t.unsqueeze(0), size=(size, size), mode="bilinear", align_corners=False)
    return (t.squeeze(0) - 0.5) / 0.25


class XrayNet(nn.Module):
    def __init__(self, in_ch=1, n_findings=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_ch, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(64, n_findings)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def load_scans(n, rng):
    scans = []
    for _ in range(n):
        h, w = rng.integers(200, 320, size=2)
        scans.append(rng.integers(0, 256, size=(h, w), dtype=np.uint8))
    return scans


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    scans = load_scans(4, rng)
    batch = torch.stack([to_tensor_chw(s) for s in scans])
    findings = torch.randint(0, 2, (4, 5)).float()
    model = XrayNet()
    loss = F.binary_cross_entropy_with_logits(model(batch), findings)
    print(loss.item())
