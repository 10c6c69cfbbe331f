import torch
import torch.nn as nn

MAX_LEN = 64


class TinyTransformerEncoder(nn.Module):
    def __init__(self, vocab_size=1000, d_model=64, n_layers=2, n_heads=4, max_len=MAX_LEN):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Parameter(torch.zeros(1, max_len, d_model))
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, ids):
        x = self.tok(ids) + self.pos[:, : ids.size(1)]
        return self.norm(self.encoder(x))


if __name__ == "__main__":
    model = TinyTransformerEncoder()
    document = torch.randint(0, 1000, (2, 80))
    chunk = document[:, :MAX_LEN]
    hidden = model(chunk)
    print(hidden.shape)
