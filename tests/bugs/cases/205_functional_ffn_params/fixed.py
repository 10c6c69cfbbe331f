import math
import torch
import torch.nn.functional as F


def init_linear(fan_in, fan_out):
    bound = 1.0 / math.sqrt(fan_in)
    w = torch.empty(fan_out, fan_in).uniform_(-bound, bound)
    b = torch.empty(fan_out).uniform_(-bound, bound)
    return w.requires_grad_(), b.requires_grad_()


def init_ffn(d_model, d_out):
    hidden = 4 * d_model
    params = {}
    params["w1"], params["b1"] = init_linear(d_model, hidden)
    params["w2"], params["b2"] = init_linear(hidden, d_out)
    return params


def ffn(params, x):
    h = F.gelu(F.linear(x, params["w1"], params["b1"]))
    return F.linear(h, params["w2"], params["b2"])


def sgd_step(params, x, y, lr=1e-2):
    pred = ffn(params, x)
    loss = F.mse_loss(pred, y)
    grads = torch.autograd.grad(loss, list(params.values()))
    with torch.no_grad():
        for p, g in zip(params.values(), grads):
            p -= lr * g
    return loss.item()
