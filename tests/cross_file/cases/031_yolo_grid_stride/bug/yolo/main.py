import torch

from . import backbone, head

IMG_SIZE = 256


def main():
    torch.manual_seed(0)
    net = backbone.DarknetTiny()
    det = head.YoloHead(net.out_channels, num_anchors=3, num_classes=20, img_size=IMG_SIZE, stride=16)
    images = torch.randn(2, 3, IMG_SIZE, IMG_SIZE)
    preds = det(net(images))
    boxes = preds[..., :4].sigmoid()
    print(preds.shape, boxes.mean().item())


if __name__ == "__main__":
    main()
