import torch
import torch.nn as nn
import torch.nn.functional as F


class SketchClassifier(nn.Module):
    def __init__(self, n_classes=20):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3)
        self.c2 = nn.Conv2d(16, 32, 3)
        self.head = nn.Sequential(
            nn.Linear(32 * 14 * 14, 256),
            nn.ReLU(),
            nn.Linear(256, n_classes),
        )

    def forward(self, img):
        h = F.max_pool2d(F.relu(self.c1(img)), 2)
        h = F.max_pool2d(F.relu(self.c2(h)), 2)
        h = h.view(-1, 32 * 14 * 14)
        return self.head(h)


def thumbnails(n, side):
    return torch.rand(n, 1, side, side)


if __name__ == "__main__":
    net = SketchClassifier()
    batch = thumbnails(4, 64)
    logits = net(batch)
    print(logits.argmax(1))
