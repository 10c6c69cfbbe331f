import torch
import torch.nn as nn


class SmoothingResidual(nn.Module):
    def __init__(self, channels, width):
        super().__init__()
        self.smooth = nn.Conv1d(channels, channels, kernel_size=1 + 2 * width // 2,
                                padding=width // 2, groups=channels, bias=False)
        nn.init.constant_(self.smooth.weight, 1.0 / (1 + 2 * (width // 2)))

    def forward(self, x):
        return x - self.smooth(x)


class VibrationDenoiser(nn.Module):
    def __init__(self, sensors=3, hidden=16, width=5):
        super().__init__()
        self.detrend = SmoothingResidual(sensors, width)
        self.encode = nn.Sequential(nn.Conv1d(sensors, hidden, 7, padding=3), nn.GELU())
        self.decode = nn.Conv1d(hidden, sensors, 7, padding=3)

    def forward(self, signal):
        return self.decode(self.encode(self.detrend(signal)))


if __name__ == "__main__":
    model = VibrationDenoiser(width=5)
    noisy = torch.randn(8, 3, 1000)
    clean = model(noisy)
    print(clean.shape)
