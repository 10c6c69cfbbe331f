import torch
import torch.nn.functional as F

from models import BACKBONES
from models.crnn import CRNN

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
IMG_H, IMG_W = 32, 128


def main():
    torch.manual_seed(0)
    model = CRNN(BACKBONES["crnn_small"](in_ch=1), num_classes=len(ALPHABET) + 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.rand(2, 1, IMG_H, IMG_W)
    target_lengths = torch.tensor([7, 5])
    targets = torch.randint(1, len(ALPHABET) + 1, (int(target_lengths.sum()),))
    log_probs = model(images)
    input_lengths = torch.full((images.size(0),), log_probs.size(1), dtype=torch.long)
    loss = F.ctc_loss(log_probs.transpose(0, 1), targets, input_lengths, target_lengths, zero_infinity=True)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(tuple(log_probs.shape), loss.item())


if __name__ == "__main__":
    main()
