import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicConv2d(nn.Sequential):
    def __init__(self, in_channels, out_channels, **kwargs):
        super().__init__(
            nn.Conv2d(in_channels, out_channels, bias=False, **kwargs),
            nn.BatchNorm2d(out_channels, eps=0.001),
            nn.ReLU(inplace=True),
        )


class Inception(nn.Module):
    def __init__(self, in_channels, ch1x1, ch3x3red, ch3x3, ch5x5red, ch5x5, pool_proj):
        super().__init__()
        self.branch1 = BasicConv2d(in_channels, ch1x1, kernel_size=1)
        self.branch2 = nn.Sequential(
            BasicConv2d(in_channels, ch3x3red, kernel_size=1), BasicConv2d(ch3x3red, ch3x3, kernel_size=3, padding=1)
        )
        self.branch3 = nn.Sequential(
            BasicConv2d(in_channels, ch5x5red, kernel_size=1), BasicConv2d(ch5x5red, ch5x5, kernel_size=3, padding=1)
        )
        self.branch4 = nn.Sequential(
            nn.MaxPool2d(kernel_size=3, stride=1, padding=1, ceil_mode=True), BasicConv2d(in_channels, pool_proj, kernel_size=1)
        )

    def forward(self, x):
        return torch.cat([self.branch1(x), self.branch2(x), self.branch3(x), self.branch4(x)], 1)


class InceptionAux(nn.Module):
    def __init__(self, in_channels, num_classes, dropout=0.7):
        super().__init__()
        self.conv = BasicConv2d(in_channels, 128, kernel_size=1)
        self.fc1 = nn.Linear(2048, 1024)
        self.fc2 = nn.Linear(1024, num_classes)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        x = F.avg_pool2d(x, kernel_size=5, stride=3)
        x = torch.flatten(self.conv(x), 1)
        x = self.dropout(F.relu(self.fc1(x), inplace=True))
        return self.fc2(x)


class MiniGoogLeNet(nn.Module):
    def __init__(self, num_classes=200, aux_logits=True):
        super().__init__()
        self.stem = nn.Sequential(
            BasicConv2d(3, 64, kernel_size=7, stride=2, padding=3),
            nn.MaxPool2d(3, stride=2, ceil_mode=True),
            BasicConv2d(64, 192, kernel_size=3, padding=1),
            nn.MaxPool2d(3, stride=2, ceil_mode=True),
        )
        self.inception3a = Inception(192, 64, 96, 128, 16, 32, 32)
        self.inception3b = Inception(256, 128, 128, 192, 32, 96, 64)
        self.maxpool3 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inception4a = Inception(480, 192, 96, 208, 16, 48, 64)
        self.aux1 = InceptionAux(512, num_classes) if aux_logits else None
        self.inception4b = Inception(512, 160, 112, 224, 24, 64, 64)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.dropout = nn.Dropout(0.2)
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.maxpool3(self.inception3b(self.inception3a(self.stem(x))))
        x = self.inception4a(x)
        aux = self.aux1(x) if self.aux1 is not None and self.training else None
        x = self.inception4b(x)
        x = self.fc(self.dropout(torch.flatten(self.avgpool(x), 1)))
        return x, aux


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MiniGoogLeNet(num_classes=200)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    images = torch.randn(8, 3, 64, 64)
    targets = torch.randint(0, 200, (8,))
    logits, aux = model(images)
    loss = F.cross_entropy(logits, targets) + 0.3 * F.cross_entropy(aux, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss.item())
