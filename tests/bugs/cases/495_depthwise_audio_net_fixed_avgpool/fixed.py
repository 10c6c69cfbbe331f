import torch
import torch.nn as nn


def dw_block(c_in, c_out, stride):
    return nn.Sequential(
        nn.Conv2d(c_in, c_in, 3, stride=stride, padding=1, groups=c_in, bias=False),
        nn.BatchNorm2d(c_in),
        nn.ReLU(inplace=True),
        nn.Conv2d(c_in, c_out, 1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class DepthwiseKWS(nn.Module):
    def __init__(self, n_words=12, widths=(32, 64, 128, 256)):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, widths[0], 3, stride=2, padding=1), nn.ReLU(inplace=True))
        blocks = []
        for c_in, c_out in zip(widths[:-1], widths[1:]):
            blocks.append(dw_block(c_in, c_out, stride=2))
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(widths[-1], n_words)

    def forward(self, mel):
        x = self.blocks(self.stem(mel))
        x = self.pool(x)
        return self.fc(x.flatten(1))


if __name__ == "__main__":
    model = DepthwiseKWS()
    mels = torch.randn(8, 1, 40, 101)
    logits = model(mels)
    print(logits.argmax(dim=1))
