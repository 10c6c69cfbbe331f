import torch
import torch.nn as nn
import torch.nn.functional as F

MEAN = torch.tensor([0.43, 0.40, 0.37]).view(3, 1, 1, 1)
STD = torch.tensor([0.23, 0.22, 0.22]).view(3, 1, 1, 1)


class Clip3DNet(nn.Module):
    def __init__(self, num_classes, widths=(32, 64, 128, 256)):
        super().__init__()
        layers, in_ch = [], 3
        for i, w in enumerate(widths):
            layers += [
                nn.Conv3d(in_ch, w, 3, padding=1, bias=False),
                nn.BatchNorm3d(w),
                nn.ReLU(inplace=True),
                nn.MaxPool3d((1, 2, 2) if i == 0 else 2),
            ]
            in_ch = w
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Dropout(0.5), nn.Linear(in_ch, num_classes))

    def forward(self, clip):
        x = self.features(clip)
        return self.head(x.mean(dim=(2, 3, 4)))


def sample_clip(video, start, span, stride):
    idx = torch.arange(start, start + span, stride).clamp(max=video.size(0) - 1)
    clip = video[idx].float().div(255.0).permute(3, 0, 1, 2)
    return (clip - MEAN) / STD


if __name__ == "__main__":
    CLIP_SPAN = 32
    FRAME_STRIDE = 8
    video = torch.randint(0, 256, (120, 64, 64, 3), dtype=torch.uint8)
    starts = torch.randint(0, video.size(0) - CLIP_SPAN, (4,)).tolist()
    clips = torch.stack([sample_clip(video, s, CLIP_SPAN, FRAME_STRIDE) for s in starts])
    labels = torch.tensor([1, 1, 1, 1])
    model = Clip3DNet(num_classes=5)
    loss = F.cross_entropy(model(clips), labels)
    loss.backward()
    print(loss.item())
