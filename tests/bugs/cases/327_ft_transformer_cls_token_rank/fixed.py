import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureTokenizer(nn.Module):
    def __init__(self, n_num, cat_cardinalities, d_token):
        super().__init__()
        self.num_weight = nn.Parameter(torch.randn(n_num, d_token) * 0.02)
        self.num_bias = nn.Parameter(torch.zeros(n_num, d_token))
        offsets = torch.tensor([0] + list(cat_cardinalities[:-1])).cumsum(0)
        self.register_buffer("cat_offsets", offsets)
        self.cat_emb = nn.Embedding(sum(cat_cardinalities), d_token)

    def forward(self, x_num, x_cat):
        num_tokens = x_num[:, :, None] * self.num_weight[None] + self.num_bias[None]
        cat_tokens = self.cat_emb(x_cat + self.cat_offsets[None])
        return torch.cat([num_tokens, cat_tokens], dim=1)


class FTTransformer(nn.Module):
    def __init__(self, n_num, cat_cardinalities, d_token=64, n_layers=3, n_heads=8, n_out=1):
        super().__init__()
        self.tokenizer = FeatureTokenizer(n_num, cat_cardinalities, d_token)
        self.cls = nn.Parameter(torch.randn(1, d_token) * 0.02)
        layer = nn.TransformerEncoderLayer(d_token, n_heads, dim_feedforward=2 * d_token, dropout=0.1,
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.LayerNorm(d_token), nn.ReLU(), nn.Linear(d_token, n_out))

    def forward(self, x_num, x_cat):
        tokens = self.tokenizer(x_num, x_cat)
        cls = self.cls.expand(tokens.size(0), -1).unsqueeze(1)
        tokens = torch.cat([cls, tokens], dim=1)
        h = self.encoder(tokens)
        return self.head(h[:, 0])


def regression_step(model, x_num, x_cat, y, opt):
    opt.zero_grad()
    loss = F.mse_loss(model(x_num, x_cat).squeeze(-1), y)
    loss.backward()
    opt.step()
    return loss.item()
