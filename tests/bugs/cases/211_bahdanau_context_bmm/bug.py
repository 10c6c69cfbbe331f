import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttention(nn.Module):
    def __init__(self, enc_dim, dec_dim, attn_dim):
        super().__init__()
        self.W_enc = nn.Linear(enc_dim, attn_dim, bias=False)
        self.W_dec = nn.Linear(dec_dim, attn_dim)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, dec_hidden, enc_out):
        energy = torch.tanh(self.W_enc(enc_out) + self.W_dec(dec_hidden).unsqueeze(1))
        weights = F.softmax(self.v(energy).squeeze(2), dim=1)
        context = torch.bmm(weights, enc_out)
        return context, weights


class Seq2SeqAttn(nn.Module):
    def __init__(self, vocab_size, emb_dim=64, hidden=128):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.encoder = nn.GRU(emb_dim, hidden, batch_first=True)
        self.attn = AdditiveAttention(hidden, hidden, hidden)
        self.decoder = nn.GRUCell(emb_dim + hidden, hidden)
        self.out = nn.Linear(2 * hidden, vocab_size)

    def forward(self, src, tgt):
        b, s = src.shape
        enc_out, h = self.encoder(self.embedding(src))
        h = h[-1]
        logits = []
        for t in range(tgt.size(1)):
            context, _ = self.attn(h, enc_out)
            emb = self.embedding(tgt[:, t])
            h = self.decoder(torch.cat([emb, context], dim=1), h)
            logits.append(self.out(torch.cat([h, context], dim=1)))
        return torch.stack(logits, dim=1)
