import torch
import torch.nn as nn


class ECGClassifier(nn.Module):
    def __init__(self, seq_len=1000, n_leads=1, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(n_leads, 16, kernel_size=7, padding=3),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(16, 32, kernel_size=5, padding=2),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(32, 64, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool1d(2),
        )
        self.fc = nn.Linear(64 * (seq_len // 8), n_classes)

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.fc(x)


def make_windows(signal, fs, seconds, overlap=0.5):
    win = int(fs * seconds)
    step = int(win * (1 - overlap))
    return signal.unfold(-1, win, step)


if __name__ == "__main__":
    fs = 250
    model = ECGClassifier(seq_len=4 * fs)
    record = torch.randn(1, 60 * fs)
    windows = make_windows(record, fs, seconds=4).transpose(0, 1)
    with torch.no_grad():
        preds = model(windows).argmax(dim=1)
    print(preds.shape)
