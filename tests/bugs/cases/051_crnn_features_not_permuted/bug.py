import torch
import torch.nn as nn


class CRNN(nn.Module):
    """Text-line recogniser: CNN over a 32-pixel-high line image, BiLSTM over the columns."""

    def __init__(self, n_classes=37, hidden=128):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(128, 256, 3, padding=1), nn.BatchNorm2d(256), nn.ReLU(), nn.MaxPool2d((2, 1)),
            nn.Conv2d(256, 256, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, None)),
        )
        self.rnn = nn.LSTM(256, hidden, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, images):
        f = self.cnn(images).squeeze(2)
        seq = f
        out, _ = self.rnn(seq)
        return self.fc(out).log_softmax(-1)


if __name__ == "__main__":
    model = CRNN()
    lines = torch.randn(2, 1, 32, 128)
    print(model(lines).shape)
