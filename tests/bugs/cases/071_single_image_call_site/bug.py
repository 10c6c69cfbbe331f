import torch
import torch.nn as nn


class ConvEncoder(nn.Module):
    def __init__(self, in_ch=3, width=32, emb_dim=128):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(2 * width, 4 * width, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.proj = nn.Linear(4 * width, emb_dim)

    def forward(self, x):
        x = self.body(x)
        x = x.mean(dim=(2, 3))
        return self.proj(x)


if __name__ == "__main__":
    encoder = ConvEncoder().eval()
    image = torch.rand(3, 64, 64)
    with torch.no_grad():
        embedding = encoder(image)
    print(embedding.shape)
