import torch
import torch.nn.functional as F

from config import CaptionConfig
from encoders import PatchEncoder
from model import CaptionDecoder


def main():
    torch.manual_seed(0)
    cfg = CaptionConfig()
    encoder = PatchEncoder(patch_size=8)
    decoder = CaptionDecoder(cfg)
    images = torch.randn(2, 3, 64, 64)
    captions = torch.randint(0, cfg.vocab_size, (2, cfg.max_len))
    logits = decoder(captions[:, :-1], encoder(images))
    loss = F.cross_entropy(logits.transpose(1, 2), captions[:, 1:])
    print("loss", loss.item())


if __name__ == "__main__":
    main()
