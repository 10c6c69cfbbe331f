import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearProbe(nn.Module):
    def __init__(self, feat_dim, num_classes):
        super().__init__()
        self.fc = nn.Linear(feat_dim, num_classes)
        nn.init.zeros_(self.fc.weight)
        nn.init.zeros_(self.fc.bias)

    def forward(self, feats):
        feats = F.normalize(feats, dim=1)
        return self.fc(feats)


def train_probe(probe, feats, labels, epochs=5, lr=0.1):
    opt = torch.optim.SGD(probe.parameters(), lr=lr, momentum=0.9)
    for _ in range(epochs):
        opt.zero_grad()
        loss = F.cross_entropy(probe(feats), labels)
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    backbone_dims = {"resnet18": 512, "resnet50": 2048}
    feats = torch.randn(256, backbone_dims["resnet18"])
    labels = torch.randint(0, 10, (256,))
    probe = LinearProbe(backbone_dims["resnet50"], 10)
    print(train_probe(probe, feats, labels))
