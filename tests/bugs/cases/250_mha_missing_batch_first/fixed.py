import torch
import torch.nn as nn


class TransformerTagger(nn.Module):
    def __init__(self, vocab_size, n_tags, d_model=128, nhead=4, pad_idx=0, max_len=512):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=pad_idx)
        self.pos = nn.Embedding(max_len, d_model)
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=0.1, batch_first=True)
        self.norm = nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, n_tags)

    def forward(self, tokens):
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.embed(tokens) + self.pos(positions)
        pad_mask = tokens == self.pad_idx
        h, _ = self.attn(x, x, x, key_padding_mask=pad_mask)
        return self.out(self.norm(x + h))


if __name__ == "__main__":
    model = TransformerTagger(vocab_size=5000, n_tags=17)
    tokens = torch.randint(1, 5000, (8, 30))
    tokens[:, 25:] = 0
    print(model(tokens).shape)
