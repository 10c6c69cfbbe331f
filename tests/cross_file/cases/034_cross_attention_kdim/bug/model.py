import torch
import torch.nn as nn

from config import CaptionConfig


class CaptionDecoder(nn.Module):
    def __init__(self, cfg: CaptionConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.text_dim)
        self.pos = nn.Parameter(torch.zeros(1, cfg.max_len, cfg.text_dim))
        self.cross = nn.MultiheadAttention(
            cfg.text_dim, cfg.num_heads, kdim=cfg.image_dim, vdim=cfg.image_dim, batch_first=True
        )
        self.norm = nn.LayerNorm(cfg.text_dim)
        self.out = nn.Linear(cfg.text_dim, cfg.vocab_size)

    def forward(self, tokens, image_feats):
        x = self.embed(tokens) + self.pos[:, :tokens.size(1)]
        attn, _ = self.cross(x, image_feats, image_feats)
        return self.out(self.norm(x + attn))
