import numpy as np
import torch
import torch.nn.functional as F


def sobel_kernels():
    gx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
    return torch.stack([gx, gx.t()]).unsqueeze(1)


def load_photo(height=120, width=160, seed=3):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=(height, width, 3), dtype=np.uint8)


def to_batch(photo):
    x = torch.from_numpy(photo).float().div(255.0)
    return x.permute(2, 0, 1).unsqueeze(0)


def edge_strength(batch, kernels):
    g = F.conv2d(batch, kernels, padding=1)
    return g.pow(2).sum(dim=1, keepdim=True).sqrt()


if __name__ == "__main__":
    photo = load_photo()
    batch = to_batch(photo)
    edges = edge_strength(batch, sobel_kernels())
    print(edges.shape, edges.mean().item())
