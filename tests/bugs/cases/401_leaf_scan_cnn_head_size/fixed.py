import torch
import torch.nn as nn
import torch.nn.functional as F


class LeafScanNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.c1 = nn.Conv2d(3, 12, kernel_size=5)
        self.c2 = nn.Conv2d(12, 24, kernel_size=5)
        self.c3 = nn.Conv2d(24, 32, kernel_size=3)
        self.head = nn.Linear(32 * 17 * 12, n_classes)

    def forward(self, img):
        h = F.max_pool2d(F.relu(self.c1(img)), 2)
        h = F.max_pool2d(F.relu(self.c2(h)), 2)
        h = F.max_pool2d(F.relu(self.c3(h)), 2)
        h = h.reshape(h.shape[0], -1)
        return self.head(h)


def load_scans(n, height=160, width=120):
    scans = torch.rand(n, 3, height, width)
    scans = (scans - 0.5) / 0.25
    labels = torch.randint(0, 4, (n,))
    return scans, labels


if __name__ == "__main__":
    net = LeafScanNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    scans, labels = load_scans(6)
    logits = net(scans)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
