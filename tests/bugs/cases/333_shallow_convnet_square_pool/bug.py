import torch
import torch.nn as nn
import torch.nn.functional as F


class Square(nn.Module):
    def forward(self, x):
        return x * x


class SafeLog(nn.Module):
    def forward(self, x):
        return torch.log(torch.clamp(x, min=1e-6))


class ShallowConvNet(nn.Module):
    """Shallow FBCSP ConvNet (Schirrmeister et al., 2017) for motor-imagery EEG."""

    def __init__(self, n_electrodes=22, n_classes=4, n_filters=40, temporal_kernel=25, dropout=0.5):
        super().__init__()
        self.n_electrodes = n_electrodes
        self.temporal = nn.Conv2d(1, n_filters, (1, temporal_kernel))
        self.spatial = nn.Conv2d(n_filters, n_filters, (n_electrodes, 1), bias=False)
        self.bn = nn.BatchNorm2d(n_filters, momentum=0.1)
        self.square = Square()
        self.pool = nn.AvgPool2d(75, stride=15)
        self.log = SafeLog()
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.LazyLinear(n_classes)

    def forward(self, eeg):
        assert eeg.dim() == 3 and eeg.size(1) == self.n_electrodes, "expected [batch, electrodes, time]"
        x = eeg.unsqueeze(1)
        x = self.bn(self.spatial(self.temporal(x)))
        x = self.log(self.pool(self.square(x)))
        x = self.dropout(x.flatten(1))
        return self.classifier(x)


def standardize_trials(eeg, eps=1e-6):
    mean = eeg.mean(dim=-1, keepdim=True)
    std = eeg.std(dim=-1, keepdim=True)
    return (eeg - mean) / (std + eps)


def evaluate(model, eeg, labels):
    model.eval()
    with torch.no_grad():
        logits = model(standardize_trials(eeg))
    return (logits.argmax(dim=1) == labels).float().mean().item()
