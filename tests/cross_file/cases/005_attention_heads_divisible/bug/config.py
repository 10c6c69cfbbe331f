from dataclasses import dataclass


@dataclass
class ModelConfig:
    vocab_size: int = 1000
    d_model: int = 256
    n_heads: int = 6
    n_layers: int = 2
    dropout: float = 0.1
    max_len: int = 64
