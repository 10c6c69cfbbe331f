import torch.nn as nn

from swin.merging import PatchEmbed, PatchMerging


def make_stage(dim, heads, depth):
    layer = lambda: nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, batch_first=True, norm_first=True)
    return nn.Sequential(*[layer() for _ in range(depth)])


class SwinLite(nn.Module):
    def __init__(self, patch_size=4, embed_dim=48, depths=(2, 2, 2), heads=(3, 6, 12), num_classes=10):
        super().__init__()
        self.patch_embed = PatchEmbed(3, embed_dim, patch_size)
        self.stages = nn.ModuleList()
        self.merges = nn.ModuleList()
        dim = embed_dim
        for i, (depth, n_heads) in enumerate(zip(depths, heads)):
            self.stages.append(make_stage(dim, n_heads, depth))
            if i < len(depths) - 1:
                out_dim = dim * 2
                self.merges.append(PatchMerging(dim))
                dim = out_dim
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images):
        x, h, w = self.patch_embed(images)
        for i, stage in enumerate(self.stages):
            x = stage(x)
            if i < len(self.merges):
                x, h, w = self.merges[i](x, h, w)
        return self.head(self.norm(x).mean(dim=1))
