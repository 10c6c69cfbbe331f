import torch
import torch.nn as nn


class MatrixFactorization(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)

    def score_all(self, user_ids):
        return self.users(user_ids) @ self.items.weight.T


def hit_rate(scores, held_out, ks=(5, 20)):
    ranked = scores.topk(max(ks), dim=1).indices
    ranked = ranked.transpose(0, 1)
    hits = ranked == held_out.unsqueeze(0)
    rates = {}
    for k in ks:
        rates[k] = hits[:k].view(-1).float().sum().item() / held_out.numel()
    return rates


if __name__ == "__main__":
    model = MatrixFactorization(n_users=300, n_items=1200)
    users = torch.arange(64)
    held_out = torch.randint(0, 1200, (64,))
    with torch.no_grad():
        print(hit_rate(model.score_all(users), held_out))
