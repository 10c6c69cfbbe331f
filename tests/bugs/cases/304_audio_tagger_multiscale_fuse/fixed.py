import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiScaleBlock(nn.Module):
    def __init__(self, channels, branch_ch, kernels=(3, 9, 27)):
        super().__init__()
        self.branches = nn.ModuleList([
            nn.Sequential(
                nn.Conv1d(channels, branch_ch, k, padding=k // 2, bias=False),
                nn.BatchNorm1d(branch_ch),
                nn.ReLU(inplace=True),
            )
            for k in kernels
        ])
        self.pool_branch = nn.Sequential(nn.MaxPool1d(3, stride=1, padding=1), nn.Conv1d(channels, branch_ch, 1))
        self.fuse = nn.Conv1d((len(kernels) + 1) * branch_ch, channels, 1)

    def forward(self, x):
        outs = [branch(x) for branch in self.branches] + [self.pool_branch(x)]
        return F.relu(x + self.fuse(torch.cat(outs, dim=1)))


class AudioTagger(nn.Module):
    def __init__(self, n_mels=64, width=128, branch_ch=32, kernels=(3, 9, 27), n_blocks=3, n_classes=50):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(n_mels, width, 5, padding=2), nn.BatchNorm1d(width), nn.ReLU())
        self.blocks = nn.Sequential(*[MultiScaleBlock(width, branch_ch, kernels) for _ in range(n_blocks)])
        self.classifier = nn.Linear(2 * width, n_classes)

    def forward(self, mel):
        x = self.blocks(self.stem(mel))
        pooled = torch.cat([x.mean(dim=-1), x.amax(dim=-1)], dim=-1)
        return self.classifier(pooled)


def multilabel_loss(model, mel, labels, pos_weight=None):
    return F.binary_cross_entropy_with_logits(model(mel), labels, pos_weight=pos_weight)
