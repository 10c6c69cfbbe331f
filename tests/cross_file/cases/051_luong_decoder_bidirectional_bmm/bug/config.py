from dataclasses import dataclass


@dataclass
class Seq2SeqConfig:
    src_vocab: int = 800
    tgt_vocab: int = 600
    emb_dim: int = 64
    hidden_size: int = 128
    bidirectional: bool = True
    pad_id: int = 0
    bos_id: int = 1
    max_decode_len: int = 12
