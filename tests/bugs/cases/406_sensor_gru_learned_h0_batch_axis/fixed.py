import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivityGRU(nn.Module):
    def __init__(self, n_sensors=9, hidden=64, layers=3, n_activities=6):
        super().__init__()
        self.h_init = nn.Parameter(torch.zeros(layers, 1, hidden))
        self.gru = nn.GRU(n_sensors, hidden, num_layers=layers, dropout=0.2, batch_first=True)
        self.out = nn.Linear(hidden, n_activities)

    def forward(self, windows):
        h0 = self.h_init.expand(-1, windows.shape[0], -1).contiguous()
        seq, _ = self.gru(windows, h0)
        return self.out(seq[:, -1])


def sliding_windows(signal, width=128, step=64):
    starts = range(0, signal.shape[0] - width + 1, step)
    return torch.stack([signal[s:s + width] for s in starts])


if __name__ == "__main__":
    recording = torch.randn(2048, 9)
    windows = sliding_windows(recording)
    labels = torch.randint(0, 6, (windows.shape[0],))
    model = ActivityGRU()
    loss = F.cross_entropy(model(windows), labels)
    loss.backward()
    print(windows.shape, loss.item())
