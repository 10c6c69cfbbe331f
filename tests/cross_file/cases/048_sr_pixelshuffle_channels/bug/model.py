import torch.nn as nn

import layers


class EDSRLite(nn.Module):
    def __init__(self, scale=3, n_feats=64, n_blocks=4, n_colors=3):
        super().__init__()
        self.sub_mean = layers.MeanShift(sign=-1)
        self.add_mean = layers.MeanShift(sign=1)
        self.head = layers.conv3x3(n_colors, n_feats)
        self.body = nn.Sequential(*[layers.ResBlock(n_feats) for _ in range(n_blocks)])
        self.body_tail = layers.conv3x3(n_feats, n_feats)
        self.upsample = nn.Sequential(layers.subpixel_conv(n_feats, n_feats, scale), nn.PixelShuffle(scale))
        self.tail = layers.conv3x3(n_feats, n_colors)

    def forward(self, lr):
        x = self.head(self.sub_mean(lr))
        x = x + self.body_tail(self.body(x))
        x = self.upsample(x)
        return self.add_mean(self.tail(x))
