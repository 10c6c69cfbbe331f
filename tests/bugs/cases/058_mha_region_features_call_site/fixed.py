import torch
import torch.nn as nn


class AttentionPooling(nn.Module):
    """Pools a set of features with a learned query via multi-head attention."""

    def __init__(self, embed_dim=256, num_heads=8):
        super().__init__()
        self.query = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, feats, key_padding_mask=None):
        q = self.query.expand(feats.size(0), -1, -1)
        pooled, weights = self.attn(q, feats, feats, key_padding_mask=key_padding_mask)
        return self.norm(pooled.squeeze(1)), weights


if __name__ == "__main__":
    pool = AttentionPooling(embed_dim=256)
    region_feats = torch.randn(4, 36, 256)
    vec, w = pool(region_feats)
    print(vec.shape, w.shape)
