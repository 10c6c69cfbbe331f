import torch
import torch.nn as nn


class TDNN(nn.Module):
    def __init__(self, n_mels=40, channels=256, emb_dim=128, n_speakers=50):
        super().__init__()
        layers = []
        in_ch = n_mels
        for k, d in [(5, 1), (3, 2), (3, 3), (1, 1)]:
            layers += [nn.Conv1d(in_ch, channels, k, dilation=d), nn.ReLU(), nn.BatchNorm1d(channels)]
            in_ch = channels
        self.frames = nn.Sequential(*layers)
        self.embedding = nn.Linear(2 * channels, emb_dim)
        self.classifier = nn.Linear(emb_dim, n_speakers)

    def forward(self, mel):
        x = self.frames(mel)
        mean = x.mean(dim=2)
        std = x.std(dim=2)
        emb = self.embedding(torch.cat([mean, std], dim=1))
        return self.classifier(torch.relu(emb)), emb


if __name__ == "__main__":
    model = TDNN()
    mel = torch.randn(8, 40, 200)
    logits, emb = model(mel)
    print(logits.shape, emb.shape)
