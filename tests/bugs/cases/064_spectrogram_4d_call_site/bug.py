import torch
import torch.nn as nn


class KeywordSpotter(nn.Module):
    """Temporal CNN over log-mel frames: input [batch, time, n_mels]."""

    def __init__(self, n_mels=40, channels=64, n_keywords=12):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(n_mels, channels, 3, padding=1), nn.BatchNorm1d(channels), nn.ReLU(),
            nn.Conv1d(channels, channels, 3, padding=2, dilation=2), nn.BatchNorm1d(channels), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1),
        )
        self.fc = nn.Linear(channels, n_keywords)

    def forward(self, x):
        x = x.permute(0, 2, 1)
        return self.fc(self.net(x).squeeze(-1))


def log_mel_batch(n, frames=101, n_mels=40):
    return torch.log1p(torch.rand(n, 1, frames, n_mels))


if __name__ == "__main__":
    model = KeywordSpotter()
    mels = log_mel_batch(8)
    logits = model(mels)
    print(logits.argmax(-1))
