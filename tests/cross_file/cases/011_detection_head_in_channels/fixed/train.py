import torch

from detect import Backbone, DetectionHead


def main():
    torch.manual_seed(0)
    backbone = Backbone()
    head = DetectionHead(in_channels=256, num_anchors=9, num_classes=20)
    images = torch.randn(2, 3, 128, 128)
    cls, box = head(backbone(images))
    print(cls.shape, box.shape)


if __name__ == "__main__":
    main()
