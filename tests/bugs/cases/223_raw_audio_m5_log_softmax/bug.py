import torch
import torch.nn as nn
import torch.nn.functional as F


class M5(nn.Module):
    def __init__(self, n_input=1, n_output=35, stride=16, n_channel=32):
        super().__init__()
        self.conv1 = nn.Conv1d(n_input, n_channel, kernel_size=80, stride=stride)
        self.bn1 = nn.BatchNorm1d(n_channel)
        self.conv2 = nn.Conv1d(n_channel, n_channel, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm1d(n_channel)
        self.conv3 = nn.Conv1d(n_channel, 2 * n_channel, kernel_size=3, padding=1)
        self.bn3 = nn.BatchNorm1d(2 * n_channel)
        self.conv4 = nn.Conv1d(2 * n_channel, 2 * n_channel, kernel_size=3, padding=1)
        self.bn4 = nn.BatchNorm1d(2 * n_channel)
        self.fc1 = nn.Linear(2 * n_channel, n_output)

    def forward(self, x):
        x = F.max_pool1d(F.relu(self.bn1(self.conv1(x))), 4, ceil_mode=True)
        x = F.max_pool1d(F.relu(self.bn2(self.conv2(x))), 4, ceil_mode=True)
        x = F.max_pool1d(F.relu(self.bn3(self.conv3(x))), 4, ceil_mode=True)
        x = F.relu(self.bn4(self.conv4(x)))
        x = F.avg_pool1d(x, x.shape[-1]).squeeze(-1)
        x = self.fc1(x)
        return F.log_softmax(x, dim=2)
