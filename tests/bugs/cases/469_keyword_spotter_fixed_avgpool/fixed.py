import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualStage(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.skip = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=2, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = self.bn2(self.conv2(h))
        return F.relu(h + self.skip(x))


class KeywordSpotter(nn.Module):
    def __init__(self, n_keywords=12, widths=(16, 32, 64, 128)):
        super().__init__()
        chans = (1,) + tuple(widths)
        self.stages = nn.Sequential(*[ResidualStage(a, b) for a, b in zip(chans[:-1], chans[1:])])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(widths[-1], n_keywords)

    def forward(self, logmel):
        h = self.stages(logmel)
        h = self.pool(h)
        h = h.mean(dim=(2, 3))
        return self.fc(h)


def log_mel_batch(batch, n_mels, frames):
    power = torch.rand(batch, 1, n_mels, frames) ** 2 + 1e-4
    return torch.log(power)


if __name__ == "__main__":
    model = KeywordSpotter()
    feats = log_mel_batch(8, 40, 101)
    logits = model(feats)
    print(logits.shape)
