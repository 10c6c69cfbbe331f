import numpy as np
import torch
import torch.nn as nn

N_AXES = 6
WINDOW = 200


class GestureNet(nn.Module):
    def __init__(self, n_axes=N_AXES, n_gestures=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(n_axes, 16, kernel_size=5, padding=2),
            nn.BatchNorm1d(16),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(16, 32, kernel_size=5, padding=2),
            nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.head = nn.Linear(32, n_gestures)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def load_recording(rng):
    t = np.linspace(0, 4 * np.pi, WINDOW)
    axes = [np.sin(t * (k + 1)) + 0.1 * rng.standard_normal(WINDOW) for k in range(N_AXES)]
    return np.stack(axes, axis=1).astype(np.float32)


def classify(model, recording):
    window = torch.from_numpy(recording).T.unsqueeze(0)
    model.eval()
    with torch.no_grad():
        logits = model(window)
    return logits.argmax(dim=1).item()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    net = GestureNet()
    rec = load_recording(rng)
    print(rec.shape, classify(net, rec))
