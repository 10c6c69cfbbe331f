import torch
import torch.nn.functional as F

IMAGENET_MEAN = torch.tensor([0.485, 0.456, 0.406])
IMAGENET_STD = torch.tensor([0.229, 0.224, 0.225])


def preprocess(images, size=224):
    """images: uint8 tensor [batch, 3, H, W] -> normalised float batch at size x size."""
    x = images.float() / 255.0
    x = F.interpolate(x, size=(size, size), mode="bilinear", align_corners=False)
    mean = IMAGENET_MEAN
    std = IMAGENET_STD.view(1, 3, 1, 1)
    return (x - mean) / std


if __name__ == "__main__":
    raw = torch.randint(0, 256, (2, 3, 120, 160), dtype=torch.uint8)
    batch = preprocess(raw, size=64)
    print(batch.shape, batch.mean().item())
