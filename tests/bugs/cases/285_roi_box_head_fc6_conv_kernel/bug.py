import torch
import torch.nn as nn
from torchvision.ops import roi_align


class ConvFCBoxHead(nn.Module):
    def __init__(self, in_channels=256, pool_size=7, conv_dim=256, fc_dim=1024, num_classes=81):
        super().__init__()
        self.pool_size = pool_size
        convs = []
        for i in range(2):
            c_in = in_channels if i == 0 else conv_dim
            convs += [nn.Conv2d(c_in, conv_dim, 3), nn.ReLU(inplace=True)]
        self.convs = nn.Sequential(*convs)
        self.fc6 = nn.Conv2d(conv_dim, fc_dim, kernel_size=pool_size)
        self.fc7 = nn.Linear(fc_dim, fc_dim)
        self.cls_score = nn.Linear(fc_dim, num_classes)
        self.bbox_pred = nn.Linear(fc_dim, 4 * (num_classes - 1))

    def forward(self, features, rois, spatial_scale):
        x = roi_align(features, rois, output_size=self.pool_size, spatial_scale=spatial_scale, sampling_ratio=2, aligned=True)
        x = self.convs(x)
        x = torch.relu(self.fc6(x).flatten(1))
        x = torch.relu(self.fc7(x))
        return self.cls_score(x), self.bbox_pred(x)
