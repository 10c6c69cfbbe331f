import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.head = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3)))


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    total_loss, correct, n = 0.0, 0, 0
    for images, labels in loader:
        logits = model(images)
        targets = F.one_hot(labels).float()
        total_loss += F.binary_cross_entropy_with_logits(logits, targets, reduction="sum").item()
        correct += (logits.argmax(dim=1) == labels).sum().item()
        n += labels.numel()
    return total_loss / n, correct / n


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes, per_class = 10, 20
    images = torch.randn(num_classes * per_class, 3, 32, 32)
    labels = torch.arange(num_classes).repeat_interleave(per_class)
    val_loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=False)
    model = SmallCNN(num_classes)
    val_loss, val_acc = evaluate(model, val_loader)
    print(f"val loss {val_loss:.4f} acc {val_acc:.3f}")
