import math

import torch


def hz_to_mel(f):
    return 2595.0 * math.log10(1.0 + f / 700.0)


def mel_filterbank(n_mels, n_fft, sample_rate, f_min=20.0, f_max=None):
    f_max = f_max or sample_rate / 2
    n_freqs = n_fft // 2 + 1
    mel_pts = torch.linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2)
    hz_pts = 700.0 * (10 ** (mel_pts / 2595.0) - 1.0)
    bins = torch.linspace(0, sample_rate / 2, n_freqs)
    lower, center, upper = hz_pts[:-2, None], hz_pts[1:-1, None], hz_pts[2:, None]
    rising = (bins[None, :] - lower) / (center - lower)
    falling = (upper - bins[None, :]) / (upper - center)
    return torch.clamp(torch.minimum(rising, falling), min=0.0)


def log_mel(wave, sample_rate=16000, n_fft=512, win_length=400, hop=160, n_mels=40):
    window = torch.hann_window(win_length)
    spec = torch.stft(wave, n_fft, hop_length=hop, win_length=win_length, window=window, return_complex=True)
    power = spec.abs() ** 2
    fbank = mel_filterbank(n_mels, n_fft, sample_rate)
    mel = torch.matmul(power, fbank)
    return torch.log(mel + 1e-6)


def cmvn(feats):
    mean = feats.mean(dim=-1, keepdim=True)
    std = feats.std(dim=-1, keepdim=True)
    return (feats - mean) / (std + 1e-5)


if __name__ == "__main__":
    waves = torch.randn(4, 16000) * 0.1
    feats = cmvn(log_mel(waves))
    print(feats.shape)
