import torch
import torch.nn.functional as F

from config import TabularConfig
from data import synthetic_batch
from model import TabularNet


def main():
    torch.manual_seed(0)
    cfg = TabularConfig()
    model = TabularNet(cfg)
    numeric, categorical, labels = synthetic_batch(cfg.batch_size)
    loss = F.cross_entropy(model(numeric, categorical), labels)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
