import torch.nn as nn

from config import Seq2SeqConfig


class Encoder(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.src_vocab, cfg.emb_dim, padding_idx=cfg.pad_id)
        self.rnn = nn.GRU(cfg.emb_dim, cfg.hidden_size, batch_first=True, bidirectional=cfg.bidirectional)

    def forward(self, src):
        outputs, h = self.rnn(self.embed(src))
        return outputs, h.sum(dim=0)
