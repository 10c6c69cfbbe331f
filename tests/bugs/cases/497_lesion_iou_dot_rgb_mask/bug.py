import numpy as np
import torch
import torch.nn as nn


class TinySegmenter(nn.Module):
    def __init__(self, in_ch=3, width=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, 1, 1),
        )

    def forward(self, x):
        return self.body(x)


def soft_iou(prob, mask, eps=1e-6):
    scores = []
    for p, m in zip(prob, mask):
        inter = torch.dot(p.reshape(-1), m.reshape(-1))
        union = p.sum() + m.sum() - inter
        scores.append((inter + eps) / (union + eps))
    return torch.stack(scores).mean()


def load_pair(rng, size=96):
    image = rng.integers(0, 256, size=(size, size, 3), dtype=np.uint8)
    mask = (rng.random((size, size, 1)) > 0.7).repeat(3, axis=2).astype(np.uint8) * 255
    return image, mask


def to_tensors(image, mask):
    x = torch.from_numpy(image).permute(2, 0, 1).float() / 255.0
    y = torch.from_numpy(mask).permute(2, 0, 1).float() / 255.0
    return x, y


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    pairs = [to_tensors(*load_pair(rng)) for _ in range(4)]
    images = torch.stack([p[0] for p in pairs])
    masks = torch.stack([p[1] for p in pairs])
    model = TinySegmenter().eval()
    with torch.no_grad():
        prob = torch.sigmoid(model(images))
    print(soft_iou(prob, masks).item())
