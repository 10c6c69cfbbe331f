import torch
import torch.nn as nn


def vgg_stage(in_ch, out_ch, n_convs):
    layers = []
    for i in range(n_convs):
        layers += [nn.Conv2d(in_ch if i == 0 else out_ch, out_ch, 3, padding=1), nn.ReLU(inplace=True)]
    layers.append(nn.MaxPool2d(2, 2))
    return nn.Sequential(*layers)


class VGG11Features(nn.Module):
    def __init__(self, widths=(16, 32, 64, 64, 64), convs=(1, 1, 2, 2, 2)):
        super().__init__()
        chans = (3,) + tuple(widths)
        self.stages = nn.ModuleList(vgg_stage(chans[i], chans[i + 1], convs[i]) for i in range(len(widths)))

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


if __name__ == "__main__":
    backbone = VGG11Features()
    thumbs = torch.randn(4, 3, 16, 16)
    for f in backbone(thumbs):
        print(tuple(f.shape))
