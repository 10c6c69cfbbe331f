import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self, state_dim, action_dim, h1=400, h2=300):
        super().__init__()
        self.fc1 = nn.Linear(state_dim, h1)
        self.ln1 = nn.LayerNorm(h1)
        self.fc2 = nn.Linear(h1, h2)
        self.ln2 = nn.LayerNorm(h2)
        self.q = nn.Linear(h2, 1)
        nn.init.uniform_(self.q.weight, -3e-3, 3e-3)

    def forward(self, state, action):
        x = F.relu(self.ln1(self.fc1(state)))
        x = torch.cat([x, action], dim=-1)
        x = F.relu(self.ln2(self.fc2(x)))
        return self.q(x)


def soft_update(target, source, tau=0.005):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1 - tau).add_(s, alpha=tau)
