import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel_size=3, padding=1),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(),
        nn.MaxPool2d(2),
    )


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=40, n_frames=101, n_classes=12):
        super().__init__()
        self.features = nn.Sequential(conv_block(1, 16), conv_block(16, 32), conv_block(32, 64))
        out_h = n_mels // 8
        out_w = n_frames // 8
        self.fc1 = nn.Linear(64 * out_h * out_w, 128)
        self.fc2 = nn.Linear(128, n_classes)
        self.dropout = nn.Dropout(0.3)

    def forward(self, spec):
        x = self.features(spec)
        x = x.view(x.size(0), -1)
        x = self.dropout(F.relu(self.fc1(x)))
        return self.fc2(x)


if __name__ == "__main__":
    model = KeywordSpotter()
    log_mel = torch.randn(8, 1, 40, 101)
    labels = torch.randint(0, 12, (8,))
    loss = F.cross_entropy(model(log_mel), labels)
    loss.backward()
    print(loss.item())
