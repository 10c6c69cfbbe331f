import torch
import torch.nn as nn

from config import Seq2SeqConfig


class LuongDecoder(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.tgt_vocab, cfg.emb_dim, padding_idx=cfg.pad_id)
        self.cell = nn.GRUCell(cfg.emb_dim + cfg.hidden_size, cfg.hidden_size)
        self.combine = nn.Linear(2 * cfg.hidden_size, cfg.hidden_size)
        self.out = nn.Linear(cfg.hidden_size, cfg.tgt_vocab)

    def attend(self, h, enc_out, src_mask):
        scores = torch.bmm(enc_out, h.unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(~src_mask, float("-inf"))
        weights = scores.softmax(dim=1)
        return torch.bmm(weights.unsqueeze(1), enc_out).squeeze(1)

    def step(self, token, h, feed, enc_out, src_mask):
        h = self.cell(torch.cat([self.embed(token), feed], dim=1), h)
        context = self.attend(h, enc_out, src_mask)
        feed = torch.tanh(self.combine(torch.cat([h, context], dim=1)))
        return self.out(feed), h, feed

    def forward(self, h, enc_out, src_mask, tgt_in):
        feed = h.new_zeros(h.size(0), self.cfg.hidden_size)
        logits = []
        for t in range(tgt_in.size(1)):
            step_logits, h, feed = self.step(tgt_in[:, t], h, feed, enc_out, src_mask)
            logits.append(step_logits)
        return torch.stack(logits, dim=1)

    @torch.no_grad()
    def greedy(self, h, enc_out, src_mask):
        token = torch.full((h.size(0),), self.cfg.bos_id, dtype=torch.long)
        feed = h.new_zeros(h.size(0), self.cfg.hidden_size)
        tokens = []
        for _ in range(self.cfg.max_decode_len):
            step_logits, h, feed = self.step(token, h, feed, enc_out, src_mask)
            token = step_logits.argmax(dim=-1)
            tokens.append(token)
        return torch.stack(tokens, dim=1)
