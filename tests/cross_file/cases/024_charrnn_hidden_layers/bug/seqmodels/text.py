import torch

ALPHABET = "abcdefghijklmnopqrstuvwxyz .,;'\n"


def encode(text):
    return torch.tensor([ALPHABET.index(c) for c in text], dtype=torch.long)
