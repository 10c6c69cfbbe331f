import torch
import torch.nn as nn


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10.0 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_freqs, n_mels, sample_rate):
    all_freqs = torch.linspace(0, sample_rate // 2, n_freqs)
    m_pts = torch.linspace(0.0, float(hz_to_mel(torch.tensor(sample_rate / 2))), n_mels + 2)
    f_pts = mel_to_hz(m_pts)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return torch.clamp(torch.min(down, up), min=0).T


def log_mel_spectrogram(wav, n_fft=512, hop=160, n_mels=40, sample_rate=16000):
    window = torch.hann_window(n_fft)
    spec = torch.stft(wav, n_fft, hop, window=window, return_complex=True).abs() ** 2
    mel = torch.matmul(mel_filterbank(n_fft // 2 + 1, n_mels, sample_rate), spec)
    return torch.log(mel + 1e-6)


def cmvn(feats, eps=1e-5):
    mean = feats.mean(dim=2, keepdim=True)
    std = feats.std(dim=2, keepdim=True)
    return (feats - mean) / (std + eps)


class KeywordCNN(nn.Module):
    def __init__(self, n_classes=12, channels=(16, 32, 64)):
        super().__init__()
        layers, in_ch = [], 1
        for ch in channels:
            layers += [nn.Conv2d(in_ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(), nn.MaxPool2d(2)]
            in_ch = ch
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(in_ch, n_classes)

    def forward(self, feats):
        x = self.features(feats.unsqueeze(1))
        return self.head(x.mean(dim=(2, 3)))


if __name__ == "__main__":
    labels = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "_unknown_", "_silence_"]
    model = KeywordCNN(n_classes=len(labels)).eval()
    wav = torch.randn(16000) * 0.1
    feats = cmvn(log_mel_spectrogram(wav))
    with torch.no_grad():
        probs = model(feats).softmax(dim=-1)
    print(labels[int(probs.argmax(dim=-1)[0])])
