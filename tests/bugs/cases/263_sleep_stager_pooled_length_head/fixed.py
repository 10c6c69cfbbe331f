import torch
import torch.nn as nn


def conv_block(in_ch, out_ch, kernel, stride=1):
    return nn.Sequential(
        nn.Conv1d(in_ch, out_ch, kernel, stride=stride, padding=kernel // 2, bias=False),
        nn.BatchNorm1d(out_ch),
        nn.GELU(),
    )


class SleepStager(nn.Module):
    def __init__(self, n_channels=2, n_classes=5, widths=(32, 64, 128), dropout=0.3):
        super().__init__()
        blocks = []
        in_ch = n_channels
        for i, w in enumerate(widths):
            blocks.append(conv_block(in_ch, w, 7 if i == 0 else 3, stride=2))
            in_ch = w
        self.features = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool1d(4)
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(widths[-1] * 4, n_classes)

    def forward(self, x):
        x = self.pool(self.features(x))
        x = torch.flatten(x, 1)
        return self.classifier(self.dropout(x))
