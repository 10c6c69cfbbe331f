import torch


def standardize(x, eps=1e-8):
    mean = x.mean(dim=0)
    std = x.std(dim=0)
    return (x - mean) / (std + eps)


def train_val_split(x, y, val_frac=0.2, seed=0):
    g = torch.Generator().manual_seed(seed)
    perm = torch.randperm(x.size(0), generator=g)
    n_val = int(x.size(0) * val_frac)
    val_idx, train_idx = perm[:n_val], perm[n_val:]
    return x[train_idx], y[train_idx], x[val_idx], y[val_idx]


def fit_logistic(x, y, epochs=100, lr=0.1):
    w = torch.zeros(x.size(1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([w, b], lr=lr)
    for _ in range(epochs):
        opt.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(x @ w + b, y)
        loss.backward()
        opt.step()
    return w, b


if __name__ == "__main__":
    features = torch.randn(160, 12) * 5 + 3
    labels = (features[:, 0] > 3).float()
    x_tr, y_tr, x_val, y_val = train_val_split(standardize(features), labels)
    w, b = fit_logistic(x_tr, y_tr)
    acc = ((x_val @ w + b > 0).float() == y_val).float().mean()
    print(acc.item())
