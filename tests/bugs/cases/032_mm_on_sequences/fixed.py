import math
import torch


def init_projection(d_in, d_out):
    bound = math.sqrt(6.0 / (d_in + d_out))
    return torch.empty(d_in, d_out).uniform_(-bound, bound)


def project_tokens(tokens, weight):
    """tokens: [batch, seq, d_in]; weight: [d_in, d_out]."""
    return torch.matmul(tokens, weight)


def encode(tokens, d_model=64):
    w = init_projection(tokens.shape[-1], d_model)
    h = torch.relu(project_tokens(tokens, w))
    return h.mean(dim=1)
