import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class BirdCallCNN(nn.Module):
    def __init__(self, n_species=12, batch_size=16):
        super().__init__()
        self.batch_size = batch_size
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.fc = nn.Linear(batch_size * 32 * 16 * 16, 128)
        self.out = nn.Linear(128, n_species)

    def forward(self, spec):
        h = self.features(spec)
        h = h.view(-1, self.batch_size * 32 * 16 * 16)
        return self.out(torch.relu(self.fc(h)))


def train_one_epoch(model, loader, opt):
    total = 0.0
    for spec, label in loader:
        logits = model(spec)
        loss = nn.functional.cross_entropy(logits, label[: logits.size(0)])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total


if __name__ == "__main__":
    specs = torch.randn(50, 1, 64, 64)
    labels = torch.randint(0, 12, (50,))
    loader = DataLoader(TensorDataset(specs, labels), batch_size=16, shuffle=True)
    model = BirdCallCNN()
    print(train_one_epoch(model, loader, torch.optim.Adam(model.parameters(), lr=1e-3)))
