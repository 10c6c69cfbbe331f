import torch
import torch.nn.functional as F


def to_tensor(image: torch.Tensor) -> torch.Tensor:
    """HWC uint8 image (as decoded by PIL/OpenCV) -> CHW float in [0, 1]."""
    return image.permute(0, 3, 1, 2).float().div(255.0)


def resize_and_normalize(image: torch.Tensor, size: int = 224) -> torch.Tensor:
    x = to_tensor(image).unsqueeze(0)
    x = F.interpolate(x, size=(size, size), mode="bilinear", align_corners=False)
    mean = x.mean(dim=(2, 3), keepdim=True)
    std = x.std(dim=(2, 3), keepdim=True).clamp_min(1e-6)
    return ((x - mean) / std).squeeze(0)


def make_batch(images, size=224):
    return torch.stack([resize_and_normalize(img, size) for img in images])
