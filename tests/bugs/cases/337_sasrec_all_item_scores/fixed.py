import torch
import torch.nn as nn
import torch.nn.functional as F


class SASRec(nn.Module):
    """Self-attentive sequential recommendation; item id 0 is padding."""

    def __init__(self, n_items, max_len=50, hidden=64, n_heads=2, n_layers=2, dropout=0.2):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, hidden)
        layer = nn.TransformerEncoderLayer(hidden, n_heads, hidden, dropout, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(hidden)
        self.dropout = nn.Dropout(dropout)

    def encode(self, seq):
        n = seq.size(1)
        pos = torch.arange(n).unsqueeze(0)
        x = self.dropout(self.item_emb(seq) * self.item_emb.embedding_dim ** 0.5 + self.pos_emb(pos))
        causal = nn.Transformer.generate_square_subsequent_mask(n)
        x = self.encoder(x, mask=causal, src_key_padding_mask=seq == 0)
        return self.norm(x)

    def forward(self, seq):
        h = self.encode(seq)[:, -1]
        return h @ self.item_emb.weight.t()


def recall_at_k(model, seqs, targets, k=10):
    model.eval()
    with torch.no_grad():
        scores = model(seqs)
        scores[:, 0] = float("-inf")
        scores.scatter_(1, seqs, float("-inf"))
        topk = scores.topk(k, dim=1).indices
    return (topk == targets.unsqueeze(1)).any(dim=1).float().mean().item()


def left_pad(histories, max_len):
    out = torch.zeros(len(histories), max_len, dtype=torch.long)
    for i, h in enumerate(histories):
        h = h[-max_len:]
        out[i, max_len - len(h):] = h
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    n_items = 3416
    histories = [torch.randint(1, n_items + 1, (int(torch.randint(5, 80, ())),)) for _ in range(32)]
    seqs = left_pad([h[:-1] for h in histories], 50)
    targets = torch.stack([h[-1] for h in histories])
    model = SASRec(n_items)
    print("recall@10", recall_at_k(model, seqs, targets))
