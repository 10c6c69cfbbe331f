import torch

CATEGORICAL = {"city": 40, "device": 4, "weekday": 7, "channel": 12}
NUMERIC = ["age", "income", "tenure", "visits", "spend"]


def cardinalities():
    return list(CATEGORICAL.values())


def column_offsets(cards):
    return torch.tensor([0] + cards[:-1]).cumsum(0)


def synthetic_batch(batch_size):
    x_cat = torch.stack([torch.randint(0, n, (batch_size,)) for n in CATEGORICAL.values()], dim=1)
    x_num = torch.randn(batch_size, len(NUMERIC))
    y = (x_num[:, 1] + 0.5 * x_num[:, 4] > 0).long()
    return x_cat, x_num, y
