import torch
import torch.nn.functional as F


def add_coords(x):
    b, _, h, w = x.shape
    ys = torch.linspace(-1.0, 1.0, h).view(1, 1, h, 1).expand(b, 1, h, w)
    xs = torch.linspace(-1.0, 1.0, w).view(1, 1, 1, w).expand(b, 1, h, w)
    return torch.cat([x, ys, xs], dim=1)


def coord_conv(x, out_channels, kernel_size=3):
    in_channels = x.shape[1]
    weight = torch.randn(out_channels, in_channels + 1, kernel_size, kernel_size) * 0.05
    bias = torch.zeros(out_channels)
    return F.conv2d(add_coords(x), weight, bias, padding=kernel_size // 2)


def coord_features(x, widths=(16, 32)):
    for width in widths:
        x = F.relu(coord_conv(x, width))
    return x
