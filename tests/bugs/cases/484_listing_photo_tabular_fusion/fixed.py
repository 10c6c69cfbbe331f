import torch
import torch.nn as nn
from torchvision.models import resnet18


class ListingPriceNet(nn.Module):
    def __init__(self, n_tabular, hidden=64):
        super().__init__()
        backbone = resnet18(weights=None)
        self.trunk = nn.Sequential(*list(backbone.children())[:-2])
        self.tab = nn.Sequential(nn.Linear(n_tabular, hidden), nn.ReLU(), nn.BatchNorm1d(hidden))
        self.regressor = nn.Sequential(nn.Linear(512 + hidden, 128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, photos, tabular):
        img_feat = self.trunk(photos).mean(dim=(2, 3))
        tab_feat = self.tab(tabular)
        fused = torch.cat([img_feat, tab_feat], dim=1)
        return self.regressor(fused).squeeze(-1)
