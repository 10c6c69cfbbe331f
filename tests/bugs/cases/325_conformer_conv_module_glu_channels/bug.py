import torch
import torch.nn as nn


class FeedForwardModule(nn.Module):
    def __init__(self, d_model, expansion=4, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(d_model), nn.Linear(d_model, expansion * d_model), nn.SiLU(),
            nn.Dropout(dropout), nn.Linear(expansion * d_model, d_model), nn.Dropout(dropout),
        )

    def forward(self, x):
        return self.net(x)


class ConvModule(nn.Module):
    def __init__(self, d_model, kernel_size=31, dropout=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.pointwise1 = nn.Conv1d(d_model, d_model, 1)
        self.glu = nn.GLU(dim=1)
        self.depthwise = nn.Conv1d(d_model, d_model, kernel_size, padding=kernel_size // 2, groups=d_model)
        self.bn = nn.BatchNorm1d(d_model)
        self.act = nn.SiLU()
        self.pointwise2 = nn.Conv1d(d_model, d_model, 1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        h = self.norm(x).transpose(1, 2)
        h = self.depthwise(self.glu(self.pointwise1(h)))
        h = self.act(self.bn(h))
        h = self.dropout(self.pointwise2(h))
        return h.transpose(1, 2)


class ConformerBlock(nn.Module):
    def __init__(self, d_model=144, n_heads=4, kernel_size=31, dropout=0.1):
        super().__init__()
        self.ff1 = FeedForwardModule(d_model, dropout=dropout)
        self.attn_norm = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.conv = ConvModule(d_model, kernel_size, dropout)
        self.ff2 = FeedForwardModule(d_model, dropout=dropout)
        self.final_norm = nn.LayerNorm(d_model)

    def forward(self, x, key_padding_mask=None):
        x = x + 0.5 * self.ff1(x)
        h = self.attn_norm(x)
        x = x + self.attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)[0]
        x = x + self.conv(x)
        x = x + 0.5 * self.ff2(x)
        return self.final_norm(x)


class ConformerEncoder(nn.Module):
    def __init__(self, n_mels=80, d_model=144, n_layers=4, n_heads=4, kernel_size=31):
        super().__init__()
        self.input_proj = nn.Linear(n_mels, d_model)
        self.blocks = nn.ModuleList(ConformerBlock(d_model, n_heads, kernel_size) for _ in range(n_layers))

    def forward(self, feats, lengths):
        mask = torch.arange(feats.size(1))[None, :] >= lengths[:, None]
        x = self.input_proj(feats)
        for block in self.blocks:
            x = block(x, key_padding_mask=mask)
        return x
