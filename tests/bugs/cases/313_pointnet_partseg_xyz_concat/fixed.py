import torch
import torch.nn as nn
import torch.nn.functional as F


def shared_mlp(channels):
    layers = []
    for cin, cout in zip(channels[:-1], channels[1:]):
        layers += [nn.Conv1d(cin, cout, 1, bias=False), nn.BatchNorm1d(cout), nn.ReLU(inplace=True)]
    return nn.Sequential(*layers)


class PartSegNet(nn.Module):
    def __init__(self, num_parts=50, num_categories=16):
        super().__init__()
        self.num_categories = num_categories
        self.local = shared_mlp([3, 64, 128, 128])
        self.glob = shared_mlp([128, 512, 1024])
        self.seg_head = nn.Sequential(
            shared_mlp([3 + 128 + 1024 + num_categories, 256, 256, 128]),
            nn.Conv1d(128, num_parts, 1),
        )

    def forward(self, points, category):
        b, n, _ = points.shape
        x = points.transpose(1, 2)
        local = self.local(x)
        g = self.glob(local).amax(dim=2, keepdim=True)
        onehot = F.one_hot(category, self.num_categories).float().unsqueeze(-1)
        feats = torch.cat([x, local, g.expand(-1, -1, n), onehot.expand(-1, -1, n)], dim=1)
        return self.seg_head(feats)


def part_seg_loss(model, points, category, part_labels):
    logits = model(points, category)
    return F.cross_entropy(logits, part_labels)


if __name__ == "__main__":
    model = PartSegNet()
    points = torch.rand(2, 1024, 3) * 2 - 1
    category = torch.tensor([3, 11])
    part_labels = torch.randint(0, 50, (2, 1024))
    loss = part_seg_loss(model, points, category, part_labels)
    loss.backward()
    print(loss.item())
