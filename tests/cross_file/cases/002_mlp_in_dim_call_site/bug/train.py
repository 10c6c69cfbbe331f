import torch
import torch.nn.functional as F

from model import MLP

NUM_FEATURES = 24
NUM_TARGETS = 3


def make_batch(n):
    x = torch.randn(n, NUM_FEATURES)
    y = torch.randn(n, NUM_TARGETS)
    return x, y


def main():
    torch.manual_seed(0)
    model = MLP(in_dim=20, hidden_dim=64, out_dim=NUM_TARGETS)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = make_batch(32)
    for epoch in range(3):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    print("final loss", loss.item())


if __name__ == "__main__":
    main()
