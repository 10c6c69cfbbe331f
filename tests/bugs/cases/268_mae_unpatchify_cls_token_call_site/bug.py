import torch
import torch.nn as nn


def unpatchify(x, p, c=3):
    n, l, _ = x.shape
    gh = gw = int(l ** 0.5)
    x = x.reshape(n, gh, gw, p, p, c)
    x = torch.einsum("nhwpqc->nchpwq", x)
    return x.reshape(n, c, gh * p, gw * p)


class MAEDecoder(nn.Module):
    def __init__(self, num_patches, enc_dim=768, dec_dim=512, depth=4, heads=16, patch_size=16, in_chans=3):
        super().__init__()
        self.embed = nn.Linear(enc_dim, dec_dim)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dec_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, dec_dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dec_dim, heads, dec_dim * 4, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dec_dim)
        self.pred = nn.Linear(dec_dim, patch_size ** 2 * in_chans)

    def forward(self, latent, ids_restore):
        x = self.embed(latent)
        n, l, d = x.shape
        n_mask = ids_restore.shape[1] + 1 - l
        x_ = torch.cat([x[:, 1:], self.mask_token.expand(n, n_mask, d)], dim=1)
        x_ = torch.gather(x_, 1, ids_restore[..., None].expand(-1, -1, d))
        x = torch.cat([x[:, :1], x_], dim=1) + self.pos_embed
        x = self.norm(self.blocks(x))
        return self.pred(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    p, img = 16, 224
    num_patches = (img // p) ** 2
    decoder = MAEDecoder(num_patches, depth=2)
    n, keep = 2, num_patches // 4
    noise = torch.rand(n, num_patches)
    ids_restore = torch.argsort(torch.argsort(noise, dim=1), dim=1)
    latent = torch.randn(n, keep + 1, 768)
    pred = decoder(latent, ids_restore)
    recon = unpatchify(pred, p)
    imgs = torch.randn(n, 3, img, img)
    loss = ((recon - imgs) ** 2).mean()
    print(loss.item())
