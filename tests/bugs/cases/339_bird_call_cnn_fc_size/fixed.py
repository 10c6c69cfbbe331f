import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLE_RATE = 22050
N_FFT, HOP, N_MELS = 2048, 512, 128
CLIP_SECONDS = 5


def conv_block(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, 3), nn.BatchNorm2d(out_ch), nn.ReLU(inplace=True), nn.MaxPool2d(2),
    )


class BirdCallCNN(nn.Module):
    def __init__(self, n_species=264, dropout=0.3):
        super().__init__()
        self.features = nn.Sequential(conv_block(1, 32), conv_block(32, 64), conv_block(64, 128), conv_block(128, 128))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Dropout(dropout),
            nn.Linear(128 * 6 * 11, 256), nn.ReLU(inplace=True),
            nn.Dropout(dropout), nn.Linear(256, n_species),
        )

    def forward(self, spec):
        return self.classifier(self.features(spec))


def log_mel(wave, mel_fb):
    window = torch.hann_window(N_FFT)
    spec = torch.stft(wave, N_FFT, HOP, window=window, return_complex=True).abs() ** 2
    mel = torch.matmul(mel_fb, spec)
    return torch.log(mel + 1e-6).unsqueeze(1)


def triangular_filterbank(n_mels, n_freqs):
    centers = torch.linspace(0, n_freqs - 1, n_mels + 2)
    bins = torch.arange(n_freqs).float()
    lower, center, upper = centers[:-2, None], centers[1:-1, None], centers[2:, None]
    up = (bins - lower) / (center - lower)
    down = (upper - bins) / (upper - center)
    return torch.clamp(torch.minimum(up, down), min=0.0)


if __name__ == "__main__":
    waves = torch.randn(8, SAMPLE_RATE * CLIP_SECONDS) * 0.1
    mel_fb = triangular_filterbank(N_MELS, N_FFT // 2 + 1)
    specs = log_mel(waves, mel_fb)
    labels = torch.randint(0, 2, (8, 264)).float()
    model = BirdCallCNN()
    loss = F.binary_cross_entropy_with_logits(model(specs), labels)
    loss.backward()
    print(specs.shape, loss.item())
