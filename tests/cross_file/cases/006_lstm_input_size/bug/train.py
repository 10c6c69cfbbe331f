import torch
import torch.nn as nn

from config import CONFIG
from data import make_windows
from model import LSTMForecaster


def main():
    torch.manual_seed(0)
    model = LSTMForecaster(**CONFIG["model"])
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    x, y = make_windows(CONFIG["batch_size"])
    loss_fn = nn.MSELoss()
    for step in range(3):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
    print("mse", loss.item())


if __name__ == "__main__":
    main()
