import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectrogramCNN(nn.Module):
    def __init__(self, in_ch=1, n_labels=12, width=32):
        super().__init__()
        self.conv_a = nn.Conv2d(in_ch, width // 2, 3, padding=1)
        self.conv_b = nn.Conv2d(width // 2, width, 3, padding=1)
        self.squeeze = nn.AdaptiveAvgPool2d((4, 4))
        self.hidden = nn.Linear(width * 16, 128)
        self.head = nn.Linear(128, n_labels)

    def forward(self, spec):
        feats = F.max_pool2d(F.gelu(self.conv_a(spec)), 2)
        feats = F.gelu(self.conv_b(feats))
        feats = self.squeeze(feats)
        feats = feats.reshape(feats.size(0), -1)
        hidden = F.gelu(self.hidden(feats))
        return self.head(hidden)
