from dataclasses import dataclass


@dataclass
class TabularConfig:
    num_numeric: int = 7
    cat_cardinalities: tuple = (12, 7, 31)
    emb_dim: int = 4
    hidden: int = 64
    num_classes: int = 2
    batch_size: int = 32
