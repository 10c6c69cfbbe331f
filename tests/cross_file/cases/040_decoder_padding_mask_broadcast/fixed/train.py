import torch
import torch.nn as nn
import torch.nn.functional as F

from decoder import Decoder
from masks import lengths_to_tokens

VOCAB = 500
PAD = 0
D_MODEL = 128


def main():
    torch.manual_seed(0)
    src = lengths_to_tokens([15, 11, 9, 14], 15, VOCAB, PAD)
    tgt = lengths_to_tokens([13, 13, 7, 10], 13, VOCAB, PAD)
    encoder = nn.Sequential(nn.Embedding(VOCAB, D_MODEL, padding_idx=PAD), nn.LayerNorm(D_MODEL))
    decoder = Decoder(VOCAB, d_model=D_MODEL, pad_id=PAD)
    logits = decoder(tgt[:, :-1], encoder(src), src)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt[:, 1:].reshape(-1), ignore_index=PAD)
    loss.backward()
    print(tuple(logits.shape), loss.item())


if __name__ == "__main__":
    main()
