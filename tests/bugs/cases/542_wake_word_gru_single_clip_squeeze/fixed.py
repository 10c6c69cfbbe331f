import torch
import torch.nn as nn


class WakeWordGRU(nn.Module):
    def __init__(self, n_mfcc=40, hidden=96, n_words=6):
        super().__init__()
        self.norm = nn.LayerNorm(n_mfcc)
        self.gru = nn.GRU(n_mfcc, hidden, num_layers=2, batch_first=True)
        self.out = nn.Linear(hidden, n_words)

    def forward(self, mfcc):
        _, h_n = self.gru(self.norm(mfcc))
        last = h_n[-1]
        return self.out(last)


@torch.no_grad()
def detect(model, clips, threshold=0.8):
    model.eval()
    probs = model(clips).softmax(dim=1)
    conf, word = probs.max(dim=1)
    return [(int(w), float(c)) for w, c in zip(word, conf) if c >= threshold]


if __name__ == "__main__":
    model = WakeWordGRU()
    mic_buffer = torch.randn(1, 98, 40)
    print(detect(model, mic_buffer, threshold=0.0))
