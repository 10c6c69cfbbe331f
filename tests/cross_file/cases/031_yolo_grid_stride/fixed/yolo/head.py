import torch.nn as nn


class YoloHead(nn.Module):
    def __init__(self, in_ch, num_anchors, num_classes, img_size, stride):
        super().__init__()
        self.na = num_anchors
        self.no = num_classes + 5
        self.grid = img_size // stride
        self.pred = nn.Conv2d(in_ch, self.na * self.no, 1)

    def forward(self, x):
        p = self.pred(x)
        p = p.view(x.size(0), self.na, self.no, self.grid, self.grid)
        return p.permute(0, 1, 3, 4, 2).contiguous()
