import torch

from models import BACKBONES, ClassifierHead

CFG = {"backbone": "small", "feat_dim": 512, "num_classes": 100}


def main():
    torch.manual_seed(0)
    backbone = BACKBONES[CFG["backbone"]]()
    head = ClassifierHead(CFG["feat_dim"], CFG["num_classes"])
    images = torch.randn(4, 3, 64, 64)
    logits = head(backbone(images))
    print(logits.shape)


if __name__ == "__main__":
    main()
