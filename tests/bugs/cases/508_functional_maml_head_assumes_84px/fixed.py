import torch
import torch.nn.functional as F

MINI_IMAGENET_SIDE = 84


def init_params(n_way, channels=32, blocks=4, side=MINI_IMAGENET_SIDE):
    params = {}
    c_in = 3
    for i in range(blocks):
        params[f"conv{i}.w"] = torch.randn(channels, c_in, 3, 3) * 0.1
        params[f"conv{i}.b"] = torch.zeros(channels)
        c_in = channels
    feat = channels * (side // 2 ** blocks) ** 2
    params["head.w"] = torch.zeros(n_way, feat)
    params["head.b"] = torch.zeros(n_way)
    return {k: v.requires_grad_() for k, v in params.items()}


def functional_forward(x, params, blocks=4):
    for i in range(blocks):
        x = F.conv2d(x, params[f"conv{i}.w"], params[f"conv{i}.b"], padding=1)
        x = F.max_pool2d(F.relu(x), 2)
    return F.linear(x.flatten(1), params["head.w"], params["head.b"])


def adapt(params, x_support, y_support, steps=1, lr=0.4):
    fast = dict(params)
    for _ in range(steps):
        loss = F.cross_entropy(functional_forward(x_support, fast), y_support)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
        fast = {k: v - lr * g for (k, v), g in zip(fast.items(), grads)}
    return fast


if __name__ == "__main__":
    n_way, side = 5, 32
    params = init_params(n_way, side=side)
    x_s, y_s = torch.rand(n_way, 3, side, side), torch.arange(n_way)
    x_q, y_q = torch.rand(3 * n_way, 3, side, side), torch.arange(n_way).repeat(3)
    fast = adapt(params, x_s, y_s)
    meta_loss = F.cross_entropy(functional_forward(x_q, fast), y_q)
    meta_loss.backward()
    print(meta_loss.item())
