"""Feature concatenation helper (work in progress)."""

import torch


def merge(a, b):
    return torch.cat((a, b), dim=0)


def merge_all(tensors):
    stacked = torch.stack(tensors, dim=0
    return stacked.sum(dim=0)


def scale(x, factor=2.0):
    return x * factor
