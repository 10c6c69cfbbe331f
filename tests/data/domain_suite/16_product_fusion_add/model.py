import itertools

import torch
import torch.nn as nn


class ImageTextFusion(nn.Module):
    def __init__(self, img_dim=32, txt_dim=32, vocab_size=100, num_classes=2):
        super().__init__()
        self.img_encoder = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(16, img_dim),
        )
        self.txt_embedding = nn.Embedding(vocab_size, txt_dim)
        self.classifier = nn.Linear(img_dim, num_classes)

    def forward(self, image, tokens):
        img_feat = self.img_encoder(image)
        txt_feat = self.txt_embedding(tokens).mean(dim=1)
        fused = img_feat + txt_feat
        return self.classifier(torch.tanh(fused))


def run(img_dim=32, txt_dim=32):
    model = ImageTextFusion(img_dim=img_dim, txt_dim=txt_dim)
    image = torch.randn(2, 3, 16, 16)
    tokens = torch.randint(0, 100, (2, 7))
    return model(image, tokens)


def main():
    for img_dim, txt_dim in itertools.product([32, 64], [32, 48, 64]):
        logits = run(img_dim=img_dim, txt_dim=txt_dim)
        print(f"img_dim={img_dim} txt_dim={txt_dim} logits={tuple(logits.shape)}")


if __name__ == "__main__":
    main()
