import torch
import torch.nn as nn
import torch.nn.functional as F


def double_conv(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, 3, padding=1),
        nn.GroupNorm(8, out_ch),
        nn.ReLU(inplace=True),
        nn.Conv2d(out_ch, out_ch, 3, padding=1),
        nn.GroupNorm(8, out_ch),
        nn.ReLU(inplace=True),
    )


class MiniUNet(nn.Module):
    def __init__(self, in_ch=3, n_classes=4, width=16):
        super().__init__()
        self.enc1 = double_conv(in_ch, width)
        self.enc2 = double_conv(width, 2 * width)
        self.up = nn.ConvTranspose2d(2 * width, width, kernel_size=2, stride=2)
        self.dec1 = double_conv(2 * width, width)
        self.out = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        d1 = self.dec1(torch.cat([self.up(e2), e1], dim=1))
        return self.out(d1)


def train_step(model, optimizer, images, masks):
    optimizer.zero_grad()
    logits = model(images)
    loss = F.cross_entropy(logits, masks, ignore_index=255)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    model = MiniUNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    images = torch.randn(4, 3, 64, 64)
    masks = torch.randint(0, 4, (4, 1, 64, 64))
    print(train_step(model, optimizer, images, masks.squeeze(1)))
