import torch
import torch.nn.functional as F

from tabnet import ResidualMLP

N_ROWS, N_COLS = 256, 30


def main():
    torch.manual_seed(0)
    x = torch.randn(N_ROWS, N_COLS)
    y = x[:, :3].sum(dim=1, keepdim=True)
    model = ResidualMLP(in_features=N_COLS, width=64)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(5):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    print("mse", loss.item())


if __name__ == "__main__":
    main()
