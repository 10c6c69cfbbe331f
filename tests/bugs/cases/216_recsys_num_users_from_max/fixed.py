import torch
import torch.nn as nn
import torch.nn.functional as F


class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        self.global_bias = nn.Parameter(torch.zeros(1))
        nn.init.normal_(self.user.weight, std=0.01)
        nn.init.normal_(self.item.weight, std=0.01)

    def forward(self, users, items):
        dot = (self.user(users) * self.item(items)).sum(dim=-1)
        bias = self.user_bias(users).squeeze(-1) + self.item_bias(items).squeeze(-1)
        return dot + bias + self.global_bias


def make_ratings(n_users=500, per_user=4, n_items=300):
    users = torch.arange(n_users).repeat_interleave(per_user)
    items = (users * 7 + torch.arange(users.numel())) % n_items
    ratings = torch.randint(1, 6, (users.numel(),)).float()
    return users, items, ratings


if __name__ == "__main__":
    user_ids, item_ids, ratings = make_ratings()
    n_users, n_items = int(user_ids.max()) + 1, int(item_ids.max()) + 1
    model = BiasedMF(n_users, n_items)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, weight_decay=1e-4)
    for epoch in range(2):
        optimizer.zero_grad()
        loss = F.mse_loss(model(user_ids, item_ids), ratings)
        loss.backward()
        optimizer.step()
    print(loss.item())
