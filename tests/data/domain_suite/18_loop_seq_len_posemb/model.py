import torch
import torch.nn as nn


class GPTLite(nn.Module):
    def __init__(self, vocab_size=64, dim=32, max_len=32, n_heads=4):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, dim)
        self.pos_emb = nn.Parameter(torch.zeros(1, max_len, dim))
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.ln = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.tok_emb(idx) + self.pos_emb[:, :T]
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        h, _ = self.attn(x, x, x, attn_mask=mask)
        x = self.ln(x + h)
        return self.lm_head(x)


def run(seq_len=16):
    model = GPTLite()
    idx = torch.randint(0, 64, (2, seq_len))
    return model(idx)


def main():
    for seq_len in [8, 16, 32, 48, 64]:
        logits = run(seq_len)
        print(seq_len, logits.shape)


if __name__ == "__main__":
    main()
