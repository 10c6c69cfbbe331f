import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn(in_ch, out_ch, kernel):
    return nn.Sequential(nn.Conv2d(in_ch, out_ch, kernel), nn.BatchNorm2d(out_ch), nn.ReLU(inplace=True))


class InputTransform(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(k, 64, 1), nn.ReLU(), nn.Conv1d(64, 256, 1), nn.ReLU())
        self.fc = nn.Linear(256, k * k)
        nn.init.zeros_(self.fc.weight)
        self.fc.bias.data.copy_(torch.eye(k).flatten())
        self.k = k

    def forward(self, points):
        feat = self.mlp(points.transpose(1, 2)).amax(dim=2)
        return self.fc(feat).view(-1, self.k, self.k)


class PointNetCls(nn.Module):
    """Port of the original TF PointNet classifier: points laid out as a [B, 1, N, 3] image."""

    def __init__(self, num_classes=40, dropout=0.3):
        super().__init__()
        self.input_transform = InputTransform(3)
        self.conv1 = conv_bn(1, 64, (1, 3))
        self.conv2 = conv_bn(64, 64, (1, 3))
        self.conv3 = conv_bn(64, 64, (1, 1))
        self.conv4 = conv_bn(64, 128, (1, 1))
        self.conv5 = conv_bn(128, 1024, (1, 1))
        self.fc = nn.Sequential(
            nn.Linear(1024, 512), nn.BatchNorm1d(512), nn.ReLU(inplace=True),
            nn.Linear(512, 256), nn.BatchNorm1d(256), nn.ReLU(inplace=True),
            nn.Dropout(dropout), nn.Linear(256, num_classes),
        )

    def forward(self, points):
        x = torch.bmm(points, self.input_transform(points)).unsqueeze(1)
        x = self.conv2(self.conv1(x))
        x = self.conv5(self.conv4(self.conv3(x)))
        x = x.amax(dim=(2, 3))
        return self.fc(x)


def jitter(points, sigma=0.01, clip=0.05):
    return points + (sigma * torch.randn_like(points)).clamp(-clip, clip)


def train_step(model, points, labels, opt):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(jitter(points)), labels)
    loss.backward()
    opt.step()
    return loss.item()
