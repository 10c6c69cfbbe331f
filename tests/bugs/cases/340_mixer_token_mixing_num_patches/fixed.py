import torch
import torch.nn as nn
import torch.nn.functional as F


class MlpBlock(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MixerBlock(nn.Module):
    def __init__(self, num_tokens, dim, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.token_mlp = MlpBlock(num_tokens, token_hidden)
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mlp = MlpBlock(dim, channel_hidden)

    def forward(self, x):
        x = x + self.token_mlp(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channel_mlp(self.norm2(x))


class MlpMixer(nn.Module):
    def __init__(self, image_size=224, patch_size=16, dim=512, depth=8, token_hidden=256,
                 channel_hidden=2048, num_classes=1000):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, patch_size, stride=patch_size)
        num_patches = (image_size // patch_size) ** 2
        self.blocks = nn.Sequential(
            *[MixerBlock(num_patches, dim, token_hidden, channel_hidden) for _ in range(depth)]
        )
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images):
        x = self.stem(images).flatten(2).transpose(1, 2)
        x = self.blocks(x)
        return self.head(self.norm(x).mean(dim=1))


def cifar_batch(n):
    images = torch.rand(n, 3, 32, 32)
    mean = torch.tensor([0.4914, 0.4822, 0.4465]).view(1, 3, 1, 1)
    std = torch.tensor([0.2470, 0.2435, 0.2616]).view(1, 3, 1, 1)
    return (images - mean) / std, torch.randint(0, 10, (n,))


if __name__ == "__main__":
    model = MlpMixer(image_size=32, patch_size=4, dim=128, depth=4, token_hidden=64, channel_hidden=512, num_classes=10)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    images, labels = cifar_batch(16)
    loss = F.cross_entropy(model(images), labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
