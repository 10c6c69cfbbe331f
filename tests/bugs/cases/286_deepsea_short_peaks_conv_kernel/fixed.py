import torch
import torch.nn as nn
import torch.nn.functional as F

NUCLEOTIDES = "ACGT"


def one_hot_dna(seqs):
    lut = {c: i for i, c in enumerate(NUCLEOTIDES)}
    idx = torch.tensor([[lut.get(c, 0) for c in s] for s in seqs])
    return F.one_hot(idx, 4).permute(0, 2, 1).float()


def conv_pool(c_in, c_out, kernel, pool):
    return nn.Sequential(
        nn.Conv1d(c_in, c_out, kernel, padding=kernel // 2),
        nn.ReLU(inplace=True),
        nn.MaxPool1d(pool) if pool > 1 else nn.Identity(),
        nn.Dropout(0.2),
    )


class DeepSEA(nn.Module):
    def __init__(self, n_targets=919, kernel=8):
        super().__init__()
        self.features = nn.Sequential(
            conv_pool(4, 320, kernel, 4),
            conv_pool(320, 480, kernel, 4),
            conv_pool(480, 960, kernel, 1),
        )
        self.pool = nn.AdaptiveMaxPool1d(1)
        self.classifier = nn.Sequential(nn.Linear(960, 925), nn.ReLU(inplace=True), nn.Linear(925, n_targets))

    def forward(self, x):
        x = self.pool(self.features(x)).flatten(1)
        return self.classifier(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    peak_len = 101
    bases = torch.randint(0, 4, (16, peak_len))
    seqs = ["".join(NUCLEOTIDES[int(b)] for b in row) for row in bases]
    x = one_hot_dna(seqs)
    y = (torch.rand(16, 919) > 0.95).float()
    model = DeepSEA()
    loss = F.binary_cross_entropy_with_logits(model(x), y)
    loss.backward()
    print(loss.item())
