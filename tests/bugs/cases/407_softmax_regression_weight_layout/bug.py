import torch
import torch.nn.functional as F


def init_params(n_in, n_out, std=0.01):
    weight = (torch.randn(n_out, n_in) * std).requires_grad_()
    bias = torch.zeros(n_out, requires_grad=True)
    return weight, bias


def predict(xb, weight, bias):
    return xb @ weight + bias


def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad.zero_()


if __name__ == "__main__":
    images = torch.rand(256, 28, 28)
    labels = torch.randint(0, 10, (256,))
    xb = images.view(-1, 28 * 28)
    weight, bias = init_params(28 * 28, 10)
    for start in range(0, 256, 64):
        logits = predict(xb[start:start + 64], weight, bias)
        loss = F.cross_entropy(logits, labels[start:start + 64])
        loss.backward()
        sgd_step((weight, bias), lr=0.5)
    print(loss.item())
