import itertools

import torch
import torch.nn as nn

POOL_SIZES = [2, 3, 4]
NUM_STAGES = [1, 2, 3]


class AudioCNN(nn.Module):
    def __init__(self, pool_size=2, num_stages=2, channels=16, num_classes=4):
        super().__init__()
        layers = []
        in_ch = 1
        for _ in range(num_stages):
            layers += [
                nn.Conv1d(in_ch, channels, kernel_size=3),
                nn.ReLU(),
                nn.MaxPool1d(pool_size),
            ]
            in_ch = channels
        self.body = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(channels, num_classes))

    def forward(self, wav):
        return self.head(self.body(wav))


def run(pool_size=2, num_stages=2):
    model = AudioCNN(pool_size=pool_size, num_stages=num_stages)
    wav = torch.randn(2, 1, 32)
    return model(wav)


def main():
    results = {}
    for pool_size, num_stages in itertools.product(POOL_SIZES, NUM_STAGES):
        results[(pool_size, num_stages)] = run(pool_size=pool_size, num_stages=num_stages).shape
    for key, shape in results.items():
        print(key, shape)


if __name__ == "__main__":
    main()
