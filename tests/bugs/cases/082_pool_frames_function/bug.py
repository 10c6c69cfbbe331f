import torch
import torch.nn.functional as F


def downsample_features(feats, rate=8):
    """feats: [batch, time, dim] -> [batch, ceil(time / rate), dim] by average pooling over time."""
    x = feats.transpose(1, 2)
    x = F.avg_pool1d(x, kernel_size=rate, stride=rate)
    return x.transpose(1, 2)


def utterance_embedding(frames, rate=8):
    pooled = downsample_features(frames, rate)
    return pooled.mean(dim=1)


if __name__ == "__main__":
    short_utt = torch.randn(2, 5, 80)
    print(utterance_embedding(short_utt).shape)
