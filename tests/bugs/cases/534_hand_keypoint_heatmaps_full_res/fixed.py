import torch
import torch.nn as nn
import torch.nn.functional as F


class HeatmapNet(nn.Module):
    def __init__(self, n_keypoints=21, width=32):
        super().__init__()
        self.stride = 4
        self.body = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, width * 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width * 2, width * 2, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Conv2d(width * 2, n_keypoints, 1)

    def forward(self, images):
        return self.head(self.body(images))


def gaussian_heatmaps(keypoints, height, width, sigma=2.0):
    ys = torch.arange(height).view(1, 1, height, 1).float()
    xs = torch.arange(width).view(1, 1, 1, width).float()
    kx = keypoints[..., 0].unsqueeze(-1).unsqueeze(-1)
    ky = keypoints[..., 1].unsqueeze(-1).unsqueeze(-1)
    return torch.exp(-((xs - kx) ** 2 + (ys - ky) ** 2) / (2 * sigma ** 2))


def training_step(model, opt, images, keypoints):
    pred = model(images)
    h, w = images.shape[-2:]
    target = gaussian_heatmaps(keypoints / model.stride, h // model.stride, w // model.stride)
    loss = F.mse_loss(pred, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    model = HeatmapNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.rand(4, 3, 128, 128)
    keypoints = torch.rand(4, 21, 2) * 128
    print(training_step(model, opt, images, keypoints))
