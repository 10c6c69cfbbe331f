import torch

import ensemble
import models

FEAT_DIM, NUM_CLASSES = 64, 10


def main():
    torch.manual_seed(0)
    members = [
        models.LinearProbe(FEAT_DIM, NUM_CLASSES),
        models.MLPHead(FEAT_DIM, NUM_CLASSES),
        models.MLPHead(FEAT_DIM, 100),
    ]
    feats = torch.randn(32, FEAT_DIM)
    logits = ensemble.average_logits(members, feats)
    print(logits.argmax(dim=1)[:8])


if __name__ == "__main__":
    main()
