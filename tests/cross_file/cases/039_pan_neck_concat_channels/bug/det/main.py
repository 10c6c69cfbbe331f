import torch
import torch.nn as nn

from .backbone import TinyBackbone
from .neck import PANNeck

NUM_CLASSES = 20
NUM_ANCHORS = 3


def main():
    torch.manual_seed(0)
    backbone = TinyBackbone()
    neck = PANNeck(backbone.out_channels)
    heads = nn.ModuleList(nn.Conv2d(c, NUM_ANCHORS * (5 + NUM_CLASSES), 1) for c in neck.out_channels)
    images = torch.randn(2, 3, 128, 128)
    outs = [head(f) for head, f in zip(heads, neck(backbone(images)))]
    for o in outs:
        print(tuple(o.shape))


if __name__ == "__main__":
    main()
