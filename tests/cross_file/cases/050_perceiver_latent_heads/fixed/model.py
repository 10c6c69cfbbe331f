import torch
import torch.nn as nn

from attention import Attention, FeedForward


class Perceiver(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        dim = cfg["latent_dim"]
        self.latents = nn.Parameter(torch.randn(cfg["num_latents"], dim) * 0.02)
        self.input_norm = nn.LayerNorm(cfg["input_dim"])
        self.latent_norm = nn.LayerNorm(dim)
        self.cross_attn = Attention(dim, cfg["input_dim"], cfg["cross_heads"])
        self.cross_ff = FeedForward(dim, cfg["ff_mult"])
        self.layers = nn.ModuleList()
        for _ in range(cfg["depth"]):
            self.layers.append(nn.ModuleList([
                nn.LayerNorm(dim), Attention(dim, dim, cfg["latent_heads"]), FeedForward(dim, cfg["ff_mult"]),
            ]))
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, cfg["num_classes"]))

    def forward(self, inputs):
        x = self.latents.expand(inputs.size(0), -1, -1)
        x = x + self.cross_attn(self.latent_norm(x), self.input_norm(inputs))
        x = x + self.cross_ff(x)
        for norm, attn, ff in self.layers:
            x = x + attn(norm(x))
            x = x + ff(x)
        return self.head(x.mean(dim=1))
