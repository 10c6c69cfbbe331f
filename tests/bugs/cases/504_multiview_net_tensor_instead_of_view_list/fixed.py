import torch
import torch.nn as nn


class MultiViewNet(nn.Module):
    def __init__(self, n_classes=5, side=32, width=32, emb=64):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(3, width // 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width // 2, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.proj = nn.Linear(width * (side // 4) ** 2, emb)
        self.head = nn.Linear(emb, n_classes)

    def forward(self, views):
        embs = []
        for v in views:
            h = self.cnn(v)
            h = h.view(h.size(0), -1)
            embs.append(torch.relu(self.proj(h)))
        fused = torch.stack(embs, dim=0).max(dim=0).values
        return self.head(fused)


def classify_object(model, front, side=None, top=None):
    views = [v for v in (front, side, top) if v is not None]
    if len(views) == 1:
        views = views[:1]
    with torch.no_grad():
        return model(views).argmax(dim=1)


if __name__ == "__main__":
    model = MultiViewNet().eval()
    front = torch.rand(8, 3, 32, 32)
    side = torch.rand(8, 3, 32, 32)
    print(classify_object(model, front, side))
    print(classify_object(model, front))
