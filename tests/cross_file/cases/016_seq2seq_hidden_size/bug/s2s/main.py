import torch
import torch.nn.functional as F

from . import decoder, encoder

SRC_VOCAB, TGT_VOCAB = 800, 600


def main():
    torch.manual_seed(0)
    enc = encoder.Encoder(SRC_VOCAB, emb_dim=64, hidden_size=256)
    dec = decoder.Decoder(TGT_VOCAB, emb_dim=64, hidden_size=128)
    src = torch.randint(0, SRC_VOCAB, (4, 15))
    tgt = torch.randint(0, TGT_VOCAB, (4, 12))
    _, hidden = enc(src)
    logits, _ = dec(tgt[:, :-1], hidden)
    loss = F.cross_entropy(logits.reshape(-1, TGT_VOCAB), tgt[:, 1:].reshape(-1))
    print("loss", loss.item())


if __name__ == "__main__":
    main()
