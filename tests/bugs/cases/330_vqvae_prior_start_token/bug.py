import torch
import torch.nn as nn
import torch.nn.functional as F


class CodePrior(nn.Module):
    """Autoregressive transformer prior over the flattened code indices of a VQ-VAE."""

    def __init__(self, codebook_size=512, grid=8, d_model=256, n_heads=8, n_layers=4):
        super().__init__()
        self.codebook_size = codebook_size
        self.bos = codebook_size
        self.tok_emb = nn.Embedding(codebook_size, d_model)
        self.pos_emb = nn.Parameter(torch.zeros(1, grid * grid, d_model))
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, dropout=0.1, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, codebook_size)

    def forward(self, codes):
        b, n = codes.shape
        bos = torch.full((b, 1), self.bos, dtype=torch.long)
        inp = torch.cat([bos, codes[:, :-1]], dim=1)
        x = self.tok_emb(inp) + self.pos_emb[:, :n]
        mask = nn.Transformer.generate_square_subsequent_mask(n)
        x = self.blocks(x, mask=mask, is_causal=True)
        return self.head(self.ln(x))


def prior_loss(prior, code_grid):
    codes = code_grid.flatten(1)
    logits = prior(codes)
    return F.cross_entropy(logits.reshape(-1, prior.codebook_size), codes.reshape(-1))


@torch.no_grad()
def sample_codes(prior, n_samples, grid, temperature=1.0):
    codes = torch.zeros(n_samples, grid * grid, dtype=torch.long)
    for i in range(grid * grid):
        logits = prior(codes)[:, i] / temperature
        codes[:, i] = torch.multinomial(logits.softmax(-1), 1).squeeze(1)
    return codes.view(n_samples, grid, grid)
