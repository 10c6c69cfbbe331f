import torch
import torch.nn as nn
from torchvision.ops import roi_align


class BoxClassifier(nn.Module):
    def __init__(self, feat_ch=64, n_classes=21, out_size=5, stride=8):
        super().__init__()
        self.out_size = out_size
        self.scale = 1.0 / stride
        self.reduce = nn.Conv2d(feat_ch, 32, 1)
        self.mlp = nn.Sequential(
            nn.Flatten(),
            nn.Linear(32 * out_size * out_size, 256),
            nn.ReLU(inplace=True),
        )
        self.cls_score = nn.Linear(256, n_classes)
        self.box_delta = nn.Linear(256, 4 * n_classes)
        self.to_prob = nn.Softmax(dim=2)

    def forward(self, feats, boxes):
        pooled = roi_align(self.reduce(feats), boxes, self.out_size, spatial_scale=self.scale, aligned=True)
        h = self.mlp(pooled)
        probs = self.to_prob(self.cls_score(h))
        deltas = self.box_delta(h).view(h.size(0), -1, 4)
        return probs, deltas


def random_boxes(n_images, per_image, image_size):
    out = []
    for _ in range(n_images):
        xy = torch.rand(per_image, 2) * image_size * 0.6
        wh = torch.rand(per_image, 2) * image_size * 0.3 + 4
        out.append(torch.cat([xy, xy + wh], dim=1))
    return out
