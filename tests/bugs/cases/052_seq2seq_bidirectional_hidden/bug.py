import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, emb_dim=64, hidden=128):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, emb_dim)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb_dim)
        self.encoder = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.decoder = nn.GRU(emb_dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, tgt_vocab)

    def encode(self, src):
        outputs, h = self.encoder(self.src_emb(src))
        return outputs, h

    def forward(self, src, tgt_in):
        _, h0 = self.encode(src)
        dec_out, _ = self.decoder(self.tgt_emb(tgt_in), h0)
        return self.out(dec_out)
