import torch
import torch.nn.functional as F

from model import EDSRLite

SCALE = 3
PATCH = 24


def main():
    torch.manual_seed(0)
    model = EDSRLite(scale=SCALE)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    hr = torch.rand(2, 3, PATCH * SCALE, PATCH * SCALE)
    lr = F.interpolate(hr, scale_factor=1 / SCALE, mode="bicubic", align_corners=False)
    sr = model(lr)
    loss = F.l1_loss(sr, hr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(tuple(lr.shape), tuple(sr.shape), loss.item())


if __name__ == "__main__":
    main()
