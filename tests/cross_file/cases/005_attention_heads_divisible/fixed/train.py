import torch
import torch.nn.functional as F

from config import ModelConfig
from model import TinyTransformer


def main():
    torch.manual_seed(0)
    cfg = ModelConfig()
    model = TinyTransformer(cfg)
    tokens = torch.randint(0, cfg.vocab_size, (4, 32))
    logits = model(tokens[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, cfg.vocab_size), tokens[:, 1:].reshape(-1))
    print("loss", loss.item())


if __name__ == "__main__":
    main()
