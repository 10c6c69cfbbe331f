import torch
import torch.nn.functional as F


def random_resized_crop(img, size, scale):
    _, h, w = img.shape
    area = h * w * torch.empty(1).uniform_(*scale).item()
    side = max(1, int(min(h, w, area ** 0.5)))
    top = torch.randint(0, h - side + 1, (1,)).item()
    left = torch.randint(0, w - side + 1, (1,)).item()
    crop = img[:, top:top + side, left:left + side].unsqueeze(0)
    return F.interpolate(crop, size=(size, size), mode="bilinear", align_corners=False).squeeze(0)


def multicrop(img, n_global=2, n_local=4, global_size=224, local_size=96):
    crops = [random_resized_crop(img, global_size, (0.14, 1.0)) for _ in range(n_global)]
    crops += [random_resized_crop(img, local_size, (0.05, 0.14)) for _ in range(n_local)]
    return crops


def collate_multicrop(images, n_global=2):
    views = [multicrop(img, n_global=n_global) for img in images]
    batch = [torch.stack(v) for v in views]
    return torch.cat(batch[:n_global]), torch.cat(batch[n_global:])


if __name__ == "__main__":
    images = [torch.rand(3, 256, 320) for _ in range(4)]
    global_views, local_views = collate_multicrop(images)
    print(global_views.shape, local_views.shape)
