import torch
import torch.nn.functional as F

from features import NUMERIC, cardinalities, synthetic_batch
from model import TabularEmbeddingNet


def main():
    torch.manual_seed(0)
    model = TabularEmbeddingNet(cardinalities(), len(NUMERIC))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        x_cat, x_num, y = synthetic_batch(64)
        loss = F.cross_entropy(model(x_cat, x_num), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
