import torch.nn as nn

from .registry import register


def conv_bn(in_ch, out_ch, stride=1):
    conv = nn.Conv2d(in_ch, out_ch, 3, stride, 1, bias=False)
    return nn.Sequential(conv, nn.BatchNorm2d(out_ch), nn.ReLU(inplace=True))


@register("crnn_vgg")
class VGGBackbone(nn.Sequential):
    out_channels = 512

    def __init__(self, in_ch=1):
        super().__init__(
            conv_bn(in_ch, 64), nn.MaxPool2d(2),
            conv_bn(64, 128), nn.MaxPool2d(2),
            conv_bn(128, 256), conv_bn(256, 256), nn.MaxPool2d((2, 1)),
            conv_bn(256, 512), conv_bn(512, 512), nn.MaxPool2d((2, 1)),
            conv_bn(512, 512), nn.MaxPool2d((2, 1)),
        )


@register("crnn_small")
class SmallBackbone(nn.Sequential):
    out_channels = 256

    def __init__(self, in_ch=1):
        super().__init__(
            conv_bn(in_ch, 64, stride=2),
            conv_bn(64, 128, stride=2),
            conv_bn(128, 256, stride=(2, 1)),
            conv_bn(256, 256, stride=(1, 2)),
            conv_bn(256, 256, stride=(2, 1)),
        )
