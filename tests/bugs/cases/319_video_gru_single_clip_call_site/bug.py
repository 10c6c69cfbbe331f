import torch
import torch.nn as nn
import torch.nn.functional as F

ACTIONS = ["walk", "run", "jump", "sit", "wave"]


class FrameEncoder(nn.Module):
    def __init__(self, width=32, out_dim=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, width, 5, stride=2, padding=2), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(2 * width, 4 * width, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4 * width, out_dim),
        )

    def forward(self, frames):
        return self.net(frames)


class ActionRecognizer(nn.Module):
    def __init__(self, n_classes, feat_dim=128, hidden=128):
        super().__init__()
        self.encoder = FrameEncoder(out_dim=feat_dim)
        self.temporal = nn.GRU(feat_dim, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, video):
        b, t = video.shape[:2]
        frames = video.permute(0, 1, 4, 2, 3).reshape(b * t, 3, video.size(2), video.size(3))
        feats = self.encoder(frames.float() / 255.0).view(b, t, -1)
        _, h = self.temporal(feats)
        return self.head(h[-1])


def decode_frames(num_frames, height, width):
    return torch.randint(0, 256, (num_frames, height, width, 3), dtype=torch.uint8)


if __name__ == "__main__":
    model = ActionRecognizer(n_classes=len(ACTIONS)).eval()
    frames = decode_frames(16, 96, 96)
    with torch.no_grad():
        probs = F.softmax(model(frames), dim=-1)
    print(ACTIONS[probs.argmax(dim=-1).item()])
