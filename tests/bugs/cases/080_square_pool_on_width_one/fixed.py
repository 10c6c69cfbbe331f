import torch
import torch.nn as nn
import torch.nn.functional as F


class RawAudioNet(nn.Module):
    """Raw-waveform CNN that reuses 2-D layers on [batch, channels, time, 1] tensors."""

    def __init__(self, channels=(32, 64, 128), n_classes=35):
        super().__init__()
        self.convs = nn.ModuleList()
        prev = 1
        for ch in channels:
            self.convs.append(nn.Conv2d(prev, ch, kernel_size=(9, 1), padding=(4, 0)))
            prev = ch
        self.fc = nn.Linear(prev, n_classes)

    def forward(self, wave):
        x = wave.unsqueeze(-1)
        for conv in self.convs:
            x = F.relu(conv(x))
            x = F.max_pool2d(x, kernel_size=(4, 1))
        x = x.amax(dim=(2, 3))
        return self.fc(x)
