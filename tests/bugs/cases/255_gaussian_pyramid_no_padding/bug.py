import math
import torch
import torch.nn.functional as F


def gaussian_kernel1d(sigma):
    radius = int(math.ceil(3 * sigma))
    x = torch.arange(-radius, radius + 1, dtype=torch.float32)
    k = torch.exp(-0.5 * (x / sigma) ** 2)
    return k / k.sum()


def gaussian_blur(images, sigma):
    c = images.shape[1]
    k1 = gaussian_kernel1d(sigma)
    weight = torch.outer(k1, k1).expand(c, 1, -1, -1).contiguous()
    return F.conv2d(images, weight, groups=c)


def build_pyramid(images, levels=4, sigma=2.0):
    pyramid = [images]
    for _ in range(levels - 1):
        blurred = gaussian_blur(pyramid[-1], sigma)
        pyramid.append(blurred[..., ::2, ::2])
    return pyramid


if __name__ == "__main__":
    imgs = torch.rand(2, 3, 64, 64)
    for level in build_pyramid(imgs):
        print(level.shape)
