import torch
import torch.nn.functional as F

from config import Seq2SeqConfig
from decoder import LuongDecoder
from encoder import Encoder


def main():
    torch.manual_seed(0)
    cfg = Seq2SeqConfig()
    encoder, decoder = Encoder(cfg), LuongDecoder(cfg)
    src = torch.randint(3, cfg.src_vocab, (4, 14))
    src[2:, 10:] = cfg.pad_id
    tgt = torch.randint(3, cfg.tgt_vocab, (4, 11))
    tgt[:, 0] = cfg.bos_id
    enc_out, h = encoder(src)
    src_mask = src != cfg.pad_id
    logits = decoder(h, enc_out, src_mask, tgt[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, cfg.tgt_vocab), tgt[:, 1:].reshape(-1), ignore_index=cfg.pad_id)
    loss.backward()
    print("loss", loss.item())
    print(decoder.greedy(h.detach(), enc_out.detach(), src_mask)[0].tolist())


if __name__ == "__main__":
    main()
