import torch
import torch.nn as nn


class FeatureTokenizer(nn.Module):
    def __init__(self, n_numeric, cat_cardinalities, d_token):
        super().__init__()
        self.num_weight = nn.Parameter(torch.randn(n_numeric, d_token) * 0.02)
        self.num_bias = nn.Parameter(torch.zeros(n_numeric, d_token))
        self.cat_embeds = nn.ModuleList(nn.Embedding(c, d_token) for c in cat_cardinalities)
        self.cls = nn.Parameter(torch.zeros(1, 1, d_token))

    def forward(self, x_num, x_cat):
        num_tokens = x_num.unsqueeze(-1) * self.num_weight + self.num_bias
        cat_tokens = torch.stack([emb(x_cat[:, i]) for i, emb in enumerate(self.cat_embeds)], dim=1)
        cls = self.cls.expand(x_num.size(0), -1, -1)
        return torch.cat([cls, num_tokens, cat_tokens], dim=1)


class TokenSelfAttention(nn.Module):
    def __init__(self, d_token, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_token // n_heads
        self.qkv = nn.Linear(d_token, 3 * d_token)
        self.out = nn.Linear(d_token, d_token)

    def forward(self, tokens):
        b, t, d = tokens.shape
        q, k, v = self.qkv(tokens).chunk(3, dim=-1)
        q = q.reshape(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = k.reshape(b, t, self.n_heads, self.d_head).transpose(1, 2)
        v = v.reshape(b, t, self.n_heads, self.d_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1) / self.d_head ** 0.5).softmax(dim=-1)
        mixed = (att @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(mixed)


class FTTransformer(nn.Module):
    def __init__(self, n_numeric, cat_cardinalities, d_token=96, n_heads=8, n_layers=3, n_out=1):
        super().__init__()
        self.tokenizer = FeatureTokenizer(n_numeric, cat_cardinalities, d_token)
        self.attn = nn.ModuleList(TokenSelfAttention(d_token, n_heads) for _ in range(n_layers))
        self.norms = nn.ModuleList(nn.LayerNorm(d_token) for _ in range(n_layers))
        self.head = nn.Linear(d_token, n_out)

    def forward(self, x_num, x_cat):
        h = self.tokenizer(x_num, x_cat)
        for attn, norm in zip(self.attn, self.norms):
            h = h + attn(norm(h))
        return self.head(h[:, 0]).squeeze(-1)


if __name__ == "__main__":
    config = {"d_token": 104, "n_heads": 8, "n_layers": 2}
    model = FTTransformer(n_numeric=6, cat_cardinalities=[4, 12, 7], **config)
    x_num = torch.randn(32, 6)
    x_cat = torch.stack([torch.randint(0, c, (32,)) for c in [4, 12, 7]], dim=1)
    print(model(x_num, x_cat).shape)
