import torch

NUMERIC_COLUMNS = ["age", "income", "balance", "duration", "campaign", "pdays", "previous", "rate"]
CATEGORICAL_COLUMNS = {"month": 12, "weekday": 7, "day": 31}


def synthetic_batch(n):
    numeric = torch.randn(n, len(NUMERIC_COLUMNS))
    categorical = torch.stack([torch.randint(0, card, (n,)) for card in CATEGORICAL_COLUMNS.values()], dim=1)
    labels = torch.randint(0, 2, (n,))
    return numeric, categorical, labels
