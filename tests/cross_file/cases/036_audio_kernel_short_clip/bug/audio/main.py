import torch
import torch.nn.functional as F

from .frontend import normalize, random_clips
from .model import WaveCNN

DURATION_S = 0.05


def main():
    torch.manual_seed(0)
    model = WaveCNN(num_classes=12)
    waves = normalize(random_clips(4, DURATION_S))
    labels = torch.randint(0, 12, (4,))
    loss = F.cross_entropy(model(waves), labels)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
