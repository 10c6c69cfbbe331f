import torch
import torch.nn as nn


def conv3d_block(in_ch, out_ch, pool_time=True):
    return nn.Sequential(
        nn.Conv3d(in_ch, out_ch, kernel_size=3, padding=(0, 1, 1), bias=False),
        nn.BatchNorm3d(out_ch),
        nn.ReLU(inplace=True),
        nn.MaxPool3d(kernel_size=(2 if pool_time else 1, 2, 2)),
    )


class ClipClassifier(nn.Module):
    def __init__(self, num_classes=10, width=16):
        super().__init__()
        self.features = nn.Sequential(
            conv3d_block(3, width, pool_time=False),
            conv3d_block(width, 2 * width),
            conv3d_block(2 * width, 4 * width),
        )
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(4 * width, num_classes)

    def forward(self, clips):
        x = self.features(clips)
        x = self.pool(x).flatten(1)
        return self.fc(self.dropout(x))


if __name__ == "__main__":
    model = ClipClassifier()
    clips = torch.randn(2, 3, 8, 64, 64)
    labels = torch.tensor([1, 7])
    loss = nn.functional.cross_entropy(model(clips), labels)
    loss.backward()
    print(loss.item())
