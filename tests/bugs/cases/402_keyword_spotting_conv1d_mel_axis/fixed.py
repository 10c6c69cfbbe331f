import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def log_mel_frames(waves, n_mels=40, hop=160):
    n_frames = waves.shape[1] // hop + 1
    frames = F.pad(waves, (0, n_frames * hop - waves.shape[1])).unfold(1, hop, hop)
    bank = torch.rand(hop, n_mels)
    return torch.log1p((frames ** 2) @ bank)


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=40, channels=64, n_words=12):
        super().__init__()
        self.conv_a = nn.Conv1d(n_mels, channels, kernel_size=3, padding=1)
        self.conv_b = nn.Conv1d(channels, channels, kernel_size=3, padding=1)
        self.classify = nn.Linear(channels, n_words)

    def forward(self, mel):
        h = F.relu(self.conv_a(mel))
        h = F.relu(self.conv_b(h))
        return self.classify(h.mean(dim=2))


if __name__ == "__main__":
    waves = torch.randn(8, 16000) * 0.1
    mel = log_mel_frames(waves)
    model = KeywordSpotter()
    logits = model(mel.transpose(1, 2))
    print(logits.shape, math.prod(logits.shape))
