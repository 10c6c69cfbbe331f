import torch
import torch.nn as nn
import torch.nn.functional as F


def build_patch_classifier(n_classes=5):
    return nn.Sequential(
        nn.Conv2d(1, 16, kernel_size=3, padding=1),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, kernel_size=3, padding=1),
        nn.BatchNorm2d(32),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * 8 * 8, n_classes),
    )


def train_step(model, opt, patches, labels):
    model.train()
    logits = model(patches)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    model = build_patch_classifier()
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    patches = torch.randn(16, 1, 32, 32)
    labels = torch.randint(0, 5, (16,))
    print(train_step(model, opt, patches, labels))
