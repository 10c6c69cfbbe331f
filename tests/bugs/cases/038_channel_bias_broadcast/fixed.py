import torch
import torch.nn as nn
import torch.nn.functional as F


class WSConv2d(nn.Module):
    """Weight-standardised conv with a separate learnable per-channel bias."""

    def __init__(self, in_ch, out_ch, kernel_size=3, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_ch, in_ch, kernel_size, kernel_size) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_ch))
        self.padding = kernel_size // 2
        self.eps = eps

    def forward(self, x):
        w = self.weight
        mean = w.mean(dim=(1, 2, 3), keepdim=True)
        var = w.var(dim=(1, 2, 3), keepdim=True, unbiased=False)
        w = (w - mean) / torch.sqrt(var + self.eps)
        out = F.conv2d(x, w, padding=self.padding)
        return out + self.bias.view(1, -1, 1, 1)


class Stem(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = WSConv2d(3, 32)
        self.norm1 = nn.GroupNorm(8, 32)
        self.conv2 = WSConv2d(32, 64)
        self.norm2 = nn.GroupNorm(8, 64)

    def forward(self, x):
        x = F.relu(self.norm1(self.conv1(x)))
        return F.relu(self.norm2(self.conv2(x)))


if __name__ == "__main__":
    stem = Stem()
    print(stem(torch.randn(2, 3, 56, 56)).shape)
