"""Reproducibility and device helpers."""

import os
import random

import numpy as np
import torch


def seed_everything(seed=0):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)
    torch.backends.cudnn.deterministic = True


def pick_device(prefer_gpu=True):
    if prefer_gpu and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def to_device(batch, device):
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device(b, device) for b in batch)
    return batch.to(device, non_blocking=True)
