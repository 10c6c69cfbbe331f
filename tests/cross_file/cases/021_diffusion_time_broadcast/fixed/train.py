import torch
import torch.nn.functional as F

from config import CONFIG
from model import Denoiser


def main():
    torch.manual_seed(0)
    model = Denoiser()
    size = CONFIG["image_size"]
    x0 = torch.randn(4, CONFIG["in_channels"], size, size)
    t = torch.randint(0, CONFIG["timesteps"], (4,))
    noise = torch.randn_like(x0)
    alpha = (1 - t.float() / CONFIG["timesteps"]).view(-1, 1, 1, 1)
    xt = alpha.sqrt() * x0 + (1 - alpha).sqrt() * noise
    loss = F.mse_loss(model(xt, t), noise)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
