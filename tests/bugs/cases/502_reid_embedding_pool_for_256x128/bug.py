import torch
import torch.nn as nn
import torch.nn.functional as F

REID_HEIGHT, REID_WIDTH = 256, 128


def stage(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.Conv2d(c_out, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class ReIDNet(nn.Module):
    def __init__(self, emb_dim=128, widths=(32, 64, 128, 256, 256)):
        super().__init__()
        chans = (3,) + tuple(widths)
        self.stages = nn.Sequential(*[stage(a, b) for a, b in zip(chans[:-1], chans[1:])])
        self.pool_size = (REID_HEIGHT // 32, REID_WIDTH // 32)
        self.embed = nn.Linear(widths[-1], emb_dim)

    def forward(self, crops):
        fmap = self.stages(crops)
        pooled = F.avg_pool2d(fmap, self.pool_size).flatten(1)
        return F.normalize(self.embed(pooled), dim=1)


def triplet_step(net, anchor, positive, negative, margin=0.3):
    emb = net(torch.cat([anchor, positive, negative]))
    a, p, n = emb.chunk(3)
    return F.triplet_margin_loss(a, p, n, margin=margin)


if __name__ == "__main__":
    crop_h, crop_w = 128, 64
    net = ReIDNet()
    batch = [torch.rand(4, 3, crop_h, crop_w) for _ in range(3)]
    loss = triplet_step(net, *batch)
    loss.backward()
    print(loss.item())
