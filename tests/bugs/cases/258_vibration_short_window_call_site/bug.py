import torch
import torch.nn as nn


class VibrationCNN(nn.Module):
    def __init__(self, in_channels=3, n_classes=4, widths=(16, 32, 64, 128)):
        super().__init__()
        layers = []
        prev = in_channels
        for w in widths:
            layers += [
                nn.Conv1d(prev, w, kernel_size=7, padding=3),
                nn.BatchNorm1d(w),
                nn.ReLU(inplace=True),
                nn.MaxPool1d(4),
            ]
            prev = w
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(prev, n_classes))

    def forward(self, x):
        return self.head(self.features(x))


def sliding_windows(signal, window, hop):
    return signal.unfold(-1, window, hop).permute(1, 0, 2)


if __name__ == "__main__":
    sample_rate = 1000
    signal = torch.randn(3, 10 * sample_rate)
    windows = sliding_windows(signal, window=sample_rate // 8, hop=sample_rate // 16)
    model = VibrationCNN()
    print(model(windows).shape)
