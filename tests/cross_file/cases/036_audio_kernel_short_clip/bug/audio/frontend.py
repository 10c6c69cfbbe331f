import torch


def random_clips(batch_size, duration_s, sample_rate=16000):
    num_samples = int(duration_s * sample_rate)
    return torch.randn(batch_size, 1, num_samples) * 0.1


def normalize(wave):
    return (wave - wave.mean(dim=-1, keepdim=True)) / (wave.std(dim=-1, keepdim=True) + 1e-5)
