"""Stray source file inside a bytecode cache directory: must be skipped (__pycache__)."""

import torch


def vandermonde(x):
    return torch.vander(x, N=3)
