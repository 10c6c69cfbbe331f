import torch
import torch.nn.functional as F

from config import CONFIG
from model import Perceiver


def main():
    torch.manual_seed(0)
    model = Perceiver(CONFIG)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    points = torch.randn(CONFIG["batch_size"], CONFIG["num_points"], CONFIG["input_dim"])
    labels = torch.randint(0, CONFIG["num_classes"], (CONFIG["batch_size"],))
    logits = model(points)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(tuple(logits.shape), loss.item())


if __name__ == "__main__":
    main()
