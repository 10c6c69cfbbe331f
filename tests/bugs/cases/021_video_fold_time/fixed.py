import torch
import torch.nn as nn


class FrameEncoder(nn.Module):
    def __init__(self, out_dim=128):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Linear(64, out_dim),
        )

    def forward(self, x):
        return self.cnn(x)


class VideoClassifier(nn.Module):
    def __init__(self, num_classes=10, dim=128):
        super().__init__()
        self.frames = FrameEncoder(dim)
        self.temporal = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, clip):
        b, t, c, h, w = clip.shape
        x = clip.reshape(b * t, c, h, w)
        feats = self.frames(x).view(b, t, -1)
        _, h_n = self.temporal(feats)
        return self.head(h_n[-1])


if __name__ == "__main__":
    model = VideoClassifier()
    clip = torch.randn(2, 8, 3, 48, 64)
    print(model(clip).shape)
