import torch
import torch.nn as nn
import torch.nn.functional as F


class SiameseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 64, 10)
        self.conv2 = nn.Conv2d(64, 128, 7)
        self.conv3 = nn.Conv2d(128, 128, 4)
        self.conv4 = nn.Conv2d(128, 256, 4)
        self.fc = nn.Linear(256 * 6 * 6, 4096)
        self.out = nn.Linear(4096, 1)

    def embed(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.max_pool2d(F.relu(self.conv3(x)), 2)
        x = F.relu(self.conv4(x))
        x = x.view(x.size(0), -1)
        return torch.sigmoid(self.fc(x))

    def forward(self, a, b):
        ea, eb = self.embed(a), self.embed(b)
        return self.out(torch.abs(ea - eb))


def contrastive_step(net, a, b, same, optimizer):
    optimizer.zero_grad()
    logits = net(a, b).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logits, same)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    net = SiameseNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    a = torch.randn(2, 1, 105, 105)
    b = torch.randn(2, 1, 105, 105)
    print(contrastive_step(net, a, b, torch.tensor([1.0, 0.0]), opt))
