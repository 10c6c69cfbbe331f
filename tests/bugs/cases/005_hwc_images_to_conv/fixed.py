import torch
import torch.nn as nn


class TinyClassifier(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, num_classes))

    def forward(self, x):
        return self.head(self.features(x))


def load_batch(n=4, size=64):
    return torch.randint(0, 256, (n, size, size, 3), dtype=torch.uint8)


if __name__ == "__main__":
    model = TinyClassifier().eval()
    images = load_batch().float() / 255.0
    with torch.no_grad():
        logits = model(images.permute(0, 3, 1, 2))
    print(logits.argmax(dim=1))
