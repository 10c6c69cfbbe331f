import math
import torch
import torch.nn.functional as F


def make_params(d_model, d_hidden):
    def init(out_f, in_f):
        return torch.randn(out_f, in_f) / math.sqrt(in_f)

    return {
        "w_in": init(2 * d_hidden, d_model),
        "b_in": torch.zeros(2 * d_hidden),
        "w_out": init(d_model, 2 * d_hidden),
        "b_out": torch.zeros(d_model),
    }


def gated_mlp(x, params):
    h = F.linear(x, params["w_in"], params["b_in"])
    a, gate = h.chunk(2, dim=-1)
    h = a * torch.sigmoid(gate)
    return x + F.linear(h, params["w_out"], params["b_out"])
