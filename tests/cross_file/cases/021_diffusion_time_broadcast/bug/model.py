import torch.nn as nn
import torch.nn.functional as F

from config import CONFIG
from embeddings import timestep_embedding


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        ch = CONFIG["channels"]
        self.time_mlp = nn.Sequential(
            nn.Linear(CONFIG["time_dim"], CONFIG["time_dim"]),
            nn.SiLU(),
            nn.Linear(CONFIG["time_dim"], CONFIG["time_channels"]),
        )
        self.conv_in = nn.Conv2d(CONFIG["in_channels"], ch, 3, padding=1)
        self.conv_mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.conv_out = nn.Conv2d(ch, CONFIG["in_channels"], 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, CONFIG["time_dim"]))
        h = F.silu(self.conv_in(x))
        h = h + temb[:, :, None, None]
        h = F.silu(self.conv_mid(h))
        return self.conv_out(h)
