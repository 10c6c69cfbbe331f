import torch
import torch.nn as nn
import torch.nn.functional as F


def conv(in_ch, out_ch, k=3, stride=1):
    return nn.Sequential(nn.Conv2d(in_ch, out_ch, k, stride, (k - 1) // 2), nn.LeakyReLU(0.1, inplace=True))


def deconv(in_ch, out_ch):
    return nn.Sequential(nn.ConvTranspose2d(in_ch, out_ch, 4, 2, 1), nn.LeakyReLU(0.1, inplace=True))


class FlowNetS(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = conv(6, 64, 7, 2)
        self.conv2 = conv(64, 128, 5, 2)
        self.conv3 = conv(128, 256, 5, 2)
        self.conv4 = conv(256, 512, 3, 2)
        self.predict4 = nn.Conv2d(512, 2, 3, 1, 1)
        self.deconv3 = deconv(512, 128)
        self.up4 = nn.ConvTranspose2d(2, 2, 4, 2, 1)
        self.predict3 = nn.Conv2d(256 + 128 + 2, 2, 3, 1, 1)

    def forward(self, pair):
        c1 = self.conv1(pair)
        c3 = self.conv3(self.conv2(c1))
        c4 = self.conv4(c3)
        flow4 = self.predict4(c4)
        cat3 = torch.cat([c3, self.deconv3(c4), self.up4(flow4)], dim=1)
        flow3 = self.predict3(cat3)
        return flow3, flow4


def multiscale_epe(preds, gt_flow, weights=(0.32, 0.08)):
    loss = 0.0
    for w, pred in zip(weights, preds):
        target = F.interpolate(gt_flow, size=pred.shape[-2:], mode="area")
        loss = loss + w * (pred - target).norm(dim=1).mean()
    return loss


def normalize_frames(frames):
    frames = frames.float() / 255.0
    return frames - frames.mean(dim=(0, 2, 3), keepdim=True)


if __name__ == "__main__":
    frame1 = torch.randint(0, 256, (4, 3, 128, 192), dtype=torch.uint8)
    frame2 = torch.randint(0, 256, (4, 3, 128, 192), dtype=torch.uint8)
    gt_flow = torch.randn(4, 2, 128, 192)
    model = FlowNetS()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    pair = torch.cat([normalize_frames(frame1), normalize_frames(frame2)], dim=1)
    loss = multiscale_epe(model(pair), gt_flow)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
