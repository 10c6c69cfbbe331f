import torch
import torch.nn as nn
import torch.nn.functional as F

LAND_COVER = ["water", "forest", "crop", "urban", "bare", "wetland"]


class TileClassifier(nn.Module):
    def __init__(self, bands=4, n_classes=len(LAND_COVER)):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(bands, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(32 * 16 * 16, n_classes)

    def forward(self, tiles):
        h = F.max_pool2d(self.block1(tiles), 2)
        h = F.max_pool2d(self.block2(h), 2)
        h = h.view(-1, 32 * 16 * 16)
        return self.head(self.drop(h))


def random_tiles(n, size=128, bands=4):
    tiles = torch.rand(n, bands, size, size) * 10000.0
    tiles = torch.log1p(tiles) / 10.0
    return tiles, torch.randint(0, len(LAND_COVER), (n,))


if __name__ == "__main__":
    model = TileClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    tiles, labels = random_tiles(12)
    logits = model(tiles)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
