import torch
import torch.nn as nn


class HARNet(nn.Module):
    def __init__(self, n_sensors=9, hidden=64, pool_len=8, n_activities=6):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(n_sensors, hidden, kernel_size=5, padding=2),
            nn.BatchNorm1d(hidden),
            nn.ReLU(),
            nn.Conv1d(hidden, hidden * 2, kernel_size=5, padding=2),
            nn.BatchNorm1d(hidden * 2),
            nn.ReLU(),
            nn.AdaptiveMaxPool1d(pool_len),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.5),
            nn.Linear(hidden * 2 * pool_len, 128),
            nn.ReLU(),
            nn.Linear(128, n_activities),
        )

    def forward(self, x):
        return self.classifier(self.encoder(x))
