import torch
import torch.nn as nn
import torch.nn.functional as F


def sobel_magnitude(img):
    gray = img.mean(dim=1, keepdim=True)
    kx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]).view(1, 1, 3, 3)
    gx = F.conv2d(gray, kx, padding=1)
    gy = F.conv2d(gray, kx.transpose(2, 3), padding=1)
    return torch.sqrt(gx ** 2 + gy ** 2 + 1e-6)


class InpaintStem(nn.Module):
    def __init__(self, image_ch=3, width=32, use_edges=False):
        super().__init__()
        self.use_edges = use_edges
        self.conv = nn.Conv2d(image_ch + 1 + int(use_edges), width, 5, padding=2)
        self.gate = nn.Conv2d(width, width, 3, padding=1)

    def forward(self, image, hole_mask):
        parts = [image * (1 - hole_mask), hole_mask]
        if self.use_edges:
            parts.append(sobel_magnitude(image) * (1 - hole_mask))
        x = torch.cat(parts, dim=1)
        h = self.conv(x)
        return F.elu(h) * torch.sigmoid(self.gate(h))


def square_holes(n, size, hole=16):
    mask = torch.zeros(n, 1, size, size)
    for i in range(n):
        top, left = torch.randint(0, size - hole, (2,)).tolist()
        mask[i, :, top:top + hole, left:left + hole] = 1.0
    return mask


if __name__ == "__main__":
    stem = InpaintStem(use_edges=True)
    images = torch.rand(4, 3, 64, 64)
    masks = square_holes(4, 64)
    out = stem(images, masks)
    print(out.shape)
