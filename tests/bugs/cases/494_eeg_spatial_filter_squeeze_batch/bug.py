import torch
import torch.nn as nn


class EEGSpatialTemporal(nn.Module):
    def __init__(self, n_electrodes=22, n_filters=16, n_classes=4):
        super().__init__()
        self.spatial = nn.Sequential(
            nn.Conv2d(1, n_filters, kernel_size=(n_electrodes, 1)),
            nn.BatchNorm2d(n_filters),
            nn.ELU(),
        )
        self.temporal = nn.Sequential(
            nn.Conv1d(n_filters, 2 * n_filters, kernel_size=9, padding=4),
            nn.ELU(),
            nn.AdaptiveAvgPool1d(8),
        )
        self.classify = nn.Linear(2 * n_filters * 8, n_classes)

    def forward(self, trials):
        z = self.spatial(trials.unsqueeze(1))
        z = z.squeeze(0)
        z = self.temporal(z)
        return self.classify(z.flatten(1))


def run_epoch(model, trials, labels, batch_size):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for i in range(0, trials.size(0), batch_size):
        opt.zero_grad()
        logits = model(trials[i:i + batch_size])
        loss = nn.functional.cross_entropy(logits, labels[i:i + batch_size])
        loss.backward()
        opt.step()


if __name__ == "__main__":
    trials = torch.randn(48, 22, 250)
    labels = torch.randint(0, 4, (48,))
    run_epoch(EEGSpatialTemporal(), trials, labels, batch_size=16)
