import torch.nn as nn

from vision.models.blocks import BasicBlock


def make_stage(in_ch, out_ch, blocks, stride):
    downsample = None
    if stride != 1 or in_ch != out_ch:
        downsample = nn.Sequential(
            nn.Conv2d(in_ch, out_ch, kernel_size=1, stride=stride, bias=False),
            nn.BatchNorm2d(out_ch),
        )
    layers = [BasicBlock(in_ch, out_ch, stride, downsample)]
    layers += [BasicBlock(out_ch, out_ch) for _ in range(blocks - 1)]
    return nn.Sequential(*layers)


class ResNet(nn.Module):
    def __init__(self, num_classes=10, widths=(32, 64, 128)):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, widths[0], 3, padding=1, bias=False), nn.BatchNorm2d(widths[0]), nn.ReLU())
        self.layer1 = make_stage(widths[0], widths[0], 2, stride=1)
        self.layer2 = make_stage(widths[0], widths[1], 2, stride=2)
        self.layer3 = make_stage(widths[1], widths[2], 2, stride=2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(widths[2], num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = self.layer3(self.layer2(self.layer1(x)))
        return self.fc(self.pool(x).flatten(1))
