import torch
import torch.nn as nn

D_MODEL = 100
N_HEADS = 8


class PatchTransformer(nn.Module):
    def __init__(self, patch=8, in_ch=3, d_model=D_MODEL, n_heads=N_HEADS, depth=2, n_classes=10):
        super().__init__()
        self.embed = nn.Conv2d(in_ch, d_model, patch, stride=patch)
        self.cls = nn.Parameter(torch.zeros(1, 1, d_model))
        self.blocks = nn.ModuleList()
        for _ in range(depth):
            self.blocks.append(nn.ModuleDict({
                "norm1": nn.LayerNorm(d_model),
                "attn": nn.MultiheadAttention(d_model, n_heads, batch_first=True),
                "norm2": nn.LayerNorm(d_model),
                "mlp": nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model)),
            }))
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, img):
        x = self.embed(img).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], dim=1)
        for blk in self.blocks:
            h = blk["norm1"](x)
            x = x + blk["attn"](h, h, h, need_weights=False)[0]
            x = x + blk["mlp"](blk["norm2"](x))
        return self.head(x[:, 0])


if __name__ == "__main__":
    model = PatchTransformer()
    print(model(torch.randn(2, 3, 32, 32)).shape)
