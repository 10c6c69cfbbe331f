import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLE_RATE = 16000
RECEPTIVE_FIELD = 400
HOP = 320


class FeatureEncoder(nn.Module):
    """wav2vec 2.0 convolutional feature encoder (group-norm variant)."""

    def __init__(self, dim=256, layers=((10, 5), (3, 2), (3, 2), (3, 2), (3, 2), (2, 2), (2, 2))):
        super().__init__()
        blocks, in_ch = [], 1
        for i, (k, s) in enumerate(layers):
            block = [nn.Conv1d(in_ch, dim, k, stride=s, bias=False)]
            if i == 0:
                block.append(nn.GroupNorm(dim, dim))
            block.append(nn.GELU())
            blocks.append(nn.Sequential(*block))
            in_ch = dim
        self.blocks = nn.Sequential(*blocks)

    def forward(self, wav):
        return self.blocks(wav.unsqueeze(1)).transpose(1, 2)


class FeatureProjection(nn.Module):
    def __init__(self, in_dim=256, out_dim=768):
        super().__init__()
        self.norm = nn.LayerNorm(in_dim)
        self.proj = nn.Linear(in_dim, out_dim)

    def forward(self, x):
        return self.proj(self.norm(x))


def normalize_wave(wav):
    return (wav - wav.mean(dim=-1, keepdim=True)) / (wav.std(dim=-1, keepdim=True) + 1e-7)


@torch.no_grad()
def stream_features(encoder, projection, wav):
    frames = []
    for start in range(0, wav.size(1) - RECEPTIVE_FIELD + 1, HOP):
        chunk = wav[:, start : start + HOP]
        frames.append(projection(encoder(chunk)))
    return torch.cat(frames, dim=1)


if __name__ == "__main__":
    wav = normalize_wave(torch.randn(2, SAMPLE_RATE))
    encoder, projection = FeatureEncoder().eval(), FeatureProjection().eval()
    offline = projection(encoder(wav))
    online = stream_features(encoder, projection, wav)
    print(offline.shape, online.shape, (offline - online).abs().max().item())
