import torch
import torch.nn.functional as F

from unet3d.model import UNet3D


def main():
    torch.manual_seed(0)
    model = UNet3D(in_ch=1, num_classes=3, base=8)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    volumes = torch.randn(2, 1, 16, 32, 32)
    labels = torch.randint(0, 3, (2, 16, 32, 32))
    logits = model(volumes)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(tuple(logits.shape), loss.item())


if __name__ == "__main__":
    main()
