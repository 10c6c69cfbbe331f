import torch
import torch.nn as nn

SAMPLE_RATE = 16000
CLIP_SECONDS = 1.0
N_FFT = 400
HOP = 160


class LogSpectrogram(nn.Module):
    def __init__(self, n_fft=N_FFT, hop=HOP):
        super().__init__()
        self.n_fft = n_fft
        self.hop = hop
        self.register_buffer("window", torch.hann_window(n_fft))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        return torch.log1p(spec.abs() ** 2)


class SpectrogramMLP(nn.Module):
    def __init__(self, n_classes=12, hidden=256, dropout=0.2):
        super().__init__()
        n_samples = int(SAMPLE_RATE * CLIP_SECONDS)
        n_freq = N_FFT // 2 + 1
        n_frames = n_samples // HOP + 1
        self.frontend = LogSpectrogram()
        self.mlp = nn.Sequential(
            nn.Linear(n_freq * n_frames, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, wav):
        feats = self.frontend(wav)
        return self.mlp(feats.flatten(1))


if __name__ == "__main__":
    model = SpectrogramMLP()
    batch = torch.randn(8, SAMPLE_RATE)
    print(model(batch).shape)
