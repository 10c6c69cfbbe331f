import torch
import torch.nn as nn
import torch.nn.functional as F


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        )
        self.block2 = nn.Sequential(
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        )
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(64 * 7 * 7, 256), nn.ReLU(), nn.Dropout(0.5), nn.Linear(256, 10))

    def forward(self, x):
        return self.fc(self.block2(self.block1(x)))


def load_train_csv(n_rows=420):
    labels = torch.randint(0, 10, (n_rows,))
    pixels = torch.randint(0, 256, (n_rows, 784)).float()
    return torch.cat([labels.unsqueeze(1).float(), pixels], dim=1)


def to_tensors(table):
    labels = table[:, 0].long()
    pixels = table[:, 1:] / 255.0
    images = pixels.reshape(-1, 28, 28).permute(0, 3, 1, 2)
    return images, labels


def random_shift(images, max_shift=2):
    dx, dy = torch.randint(-max_shift, max_shift + 1, (2,)).tolist()
    return torch.roll(images, shifts=(dy, dx), dims=(2, 3))


if __name__ == "__main__":
    images, labels = to_tensors(load_train_csv())
    model = DigitNet()
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    for i in range(0, 128, 64):
        xb, yb = random_shift(images[i : i + 64]), labels[i : i + 64]
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
