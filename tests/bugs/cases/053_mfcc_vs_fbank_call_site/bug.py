import torch
import torch.nn as nn

N_MELS = 40


class SpeakerEncoder(nn.Module):
    """GE2E-style speaker encoder over log filterbank frames."""

    def __init__(self, n_mels=N_MELS, hidden=256, emb_dim=128, layers=3):
        super().__init__()
        self.lstm = nn.LSTM(n_mels, hidden, num_layers=layers, batch_first=True)
        self.proj = nn.Linear(hidden, emb_dim)

    def forward(self, frames):
        _, (h, _) = self.lstm(frames)
        e = self.proj(h[-1])
        return e / e.norm(dim=1, keepdim=True)


def frame_features(waveform, n_coeffs, frame=400, hop=160):
    frames = waveform.unfold(-1, frame, hop)
    spec = torch.fft.rfft(frames * torch.hann_window(frame)).abs().pow(2)
    return torch.log1p(spec[..., :n_coeffs])


if __name__ == "__main__":
    encoder = SpeakerEncoder()
    utterances = frame_features(torch.randn(4, 8000), n_coeffs=13)
    emb = encoder(utterances)
    print((emb @ emb.t()).shape)
