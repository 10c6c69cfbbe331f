from blocks import *


class InceptionSENet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(ConvBNReLU(3, 32, 3, stride=2), ConvBNReLU(32, 64, 3))
        self.inc3a = InceptionSE(64, 32, 48, 64, 8, 16, 16)
        self.inc3b = InceptionSE(self.inc3a.out_channels, 64, 64, 96, 16, 48, 32)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.inc4a = InceptionSE(self.inc3b.out_channels, 96, 48, 104, 8, 24, 32)
        self.classifier = nn.Linear(self.inc4a.out_channels, num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = self.pool(self.inc3b(self.inc3a(x)))
        x = self.inc4a(x)
        return self.classifier(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))
