import torch
import torch.nn.functional as F

KINETICS_MEAN = (0.43216, 0.394666, 0.37645)
KINETICS_STD = (0.22803, 0.22145, 0.216989)


def load_clip(frames, size=112):
    clip = torch.stack(frames).float() / 255.0
    clip = clip.permute(3, 0, 1, 2)
    t = clip.shape[1]
    clip = F.interpolate(clip.unsqueeze(0), size=(t, size, size), mode="trilinear", align_corners=False)[0]
    mean = torch.tensor(KINETICS_MEAN).view(3, 1, 1, 1)
    std = torch.tensor(KINETICS_STD).view(3, 1, 1, 1)
    return (clip - mean) / std


def sample_frames(video, num_frames=16):
    idx = torch.linspace(0, len(video) - 1, num_frames).long()
    return [video[i] for i in idx.tolist()]


if __name__ == "__main__":
    video = [torch.randint(0, 256, (128, 171, 3), dtype=torch.uint8) for _ in range(40)]
    clips = torch.stack([load_clip(sample_frames(video)) for _ in range(2)])
    print(clips.shape)
