from dataclasses import dataclass


@dataclass
class CaptionConfig:
    vocab_size: int = 4000
    text_dim: int = 256
    image_dim: int = 512
    num_heads: int = 8
    max_len: int = 20
