import torch
import torch.nn as nn

BEAT_LEN = 256
BEAT_TYPES = ["N", "S", "V", "F", "Q"]


class BeatCNN(nn.Module):
    def __init__(self, leads=1, width=16, n_types=len(BEAT_TYPES)):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(leads, width, 7, padding=3), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(width, 2 * width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(4),
        )
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(2 * width * (BEAT_LEN // 16), 64), nn.ReLU(),
            nn.Linear(64, n_types),
        )

    def forward(self, x):
        return self.head(self.body(x))


def segment_beats(signal, r_peaks, half=BEAT_LEN // 2):
    return [signal[:, p - half:p + half] for p in r_peaks if p - half >= 0 and p + half <= signal.shape[1]]


def label_beat(model, beat):
    with torch.no_grad():
        logits = model(beat)
    return BEAT_TYPES[int(logits.argmax(dim=-1).reshape(-1)[0])]


if __name__ == "__main__":
    record = torch.randn(1, 3600)
    beats = segment_beats(record, r_peaks=[400, 1200, 2000, 2900])
    model = BeatCNN().eval()
    print([label_beat(model, b) for b in beats])
