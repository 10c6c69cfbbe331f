import torch
import torch.nn as nn
import torch.nn.functional as F

FRAME_H, FRAME_W = 192, 320


def down(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class SharedTrunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList([down(3, 24), down(24, 48), down(48, 96)])

    def forward(self, x):
        for stage in self.stages:
            x = stage(x)
        return x


class DrivingSceneNet(nn.Module):
    def __init__(self, n_seg=4, n_scene=5):
        super().__init__()
        self.trunk = SharedTrunk()
        self.seg_head = nn.Conv2d(96, n_seg, 1)
        self.scene_convs = nn.Sequential(down(96, 192), down(192, 256))
        self.scene_fc = nn.Linear(256 * (FRAME_H // 32) * (FRAME_W // 32), 512)
        self.scene_out = nn.Linear(512, n_scene)

    def forward(self, frames):
        feats = self.trunk(frames)
        seg = F.interpolate(self.seg_head(feats), size=frames.shape[-2:], mode="bilinear", align_corners=False)
        s = self.scene_convs(feats)
        s = torch.flatten(s, 1)
        s = F.relu(self.scene_fc(s))
        return seg, self.scene_out(s)


def camera_batch(n, height, width):
    raw = torch.rand(n, height, width, 3) * 255.0
    mean = torch.tensor([0.485, 0.456, 0.406])
    std = torch.tensor([0.229, 0.224, 0.225])
    return ((raw / 255.0 - mean) / std).permute(0, 3, 1, 2).contiguous()


if __name__ == "__main__":
    net = DrivingSceneNet().eval()
    frames = camera_batch(2, 240, 320)
    with torch.no_grad():
        seg, scene = net(frames)
    print(seg.shape, scene.argmax(1))
