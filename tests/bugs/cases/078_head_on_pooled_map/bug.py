import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor


class FCNClassifier(nn.Module):
    """Fully convolutional classifier: 3x3 conv head, then global average pooling."""

    def __init__(self, in_ch: int = 3, width: int = 32, n_classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(),
        )
        self.head = nn.Conv2d(2 * width, n_classes, kernel_size=3)

    def forward(self, x: Float[Tensor, "b c h w"]) -> Float[Tensor, "b k"]:
        x = self.features(x)
        x = self.head(F.adaptive_avg_pool2d(x, 1))
        return x.flatten(1)
