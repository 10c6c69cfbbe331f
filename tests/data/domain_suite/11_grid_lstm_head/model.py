import torch
import torch.nn as nn


class SequenceClassifier(nn.Module):
    def __init__(self, input_size=8, hidden=32, num_layers=1, bidirectional=True, num_classes=3):
        super().__init__()
        self.lstm = nn.LSTM(
            input_size,
            hidden,
            num_layers=num_layers,
            batch_first=True,
            bidirectional=bidirectional,
        )
        self.fc = nn.Linear(hidden * 2, num_classes)

    def forward(self, x):
        _, (h_n, _) = self.lstm(x)
        feat = h_n.transpose(0, 1).reshape(x.size(0), -1)
        return self.fc(feat)


grid = [
    dict(hidden=32, num_layers=1, bidirectional=False),
    dict(hidden=32, num_layers=1, bidirectional=True),
    dict(hidden=32, num_layers=2, bidirectional=False),
    dict(hidden=32, num_layers=2, bidirectional=True),
    dict(hidden=16, num_layers=1, bidirectional=True),
    dict(hidden=16, num_layers=3, bidirectional=False),
]


def run(hidden=32, num_layers=1, bidirectional=True):
    model = SequenceClassifier(hidden=hidden, num_layers=num_layers, bidirectional=bidirectional)
    x = torch.randn(2, 12, 8)
    return model(x)


def main():
    torch.manual_seed(0)
    for params in grid:
        logits = run(**params)
        print(params, logits.shape)


if __name__ == "__main__":
    main()
