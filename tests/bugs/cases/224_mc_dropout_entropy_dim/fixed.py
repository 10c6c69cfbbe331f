import torch
import torch.nn as nn
import torch.nn.functional as F


def mc_dropout_uncertainty(model, x, n_samples=20, eps=1e-12):
    model.train()
    with torch.no_grad():
        probs = torch.stack([F.softmax(model(x), dim=-1) for _ in range(n_samples)])
    mean = probs.mean(dim=0)
    total = -(mean * torch.log(mean + eps)).sum(dim=1)
    expected = -(probs * torch.log(probs + eps)).sum(dim=2).mean(dim=0)
    return mean, total, total - expected


def make_classifier(n_in, n_classes, hidden=64, p=0.5):
    return nn.Sequential(
        nn.Linear(n_in, hidden),
        nn.ReLU(),
        nn.Dropout(p),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Dropout(p),
        nn.Linear(hidden, n_classes),
    )


if __name__ == "__main__":
    model = make_classifier(20, 5)
    x = torch.randn(32, 20)
    mean, entropy, mutual_info = mc_dropout_uncertainty(model, x)
    print(mean.argmax(dim=1), entropy.mean().item(), mutual_info.mean().item())
