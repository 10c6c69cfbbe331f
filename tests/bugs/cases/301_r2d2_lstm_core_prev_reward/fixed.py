import torch
import torch.nn as nn
import torch.nn.functional as F


class RecurrentQNet(nn.Module):
    def __init__(self, obs_channels=4, n_actions=6, hidden=256):
        super().__init__()
        self.n_actions = n_actions
        self.hidden = hidden
        self.encoder = nn.Sequential(
            nn.Conv2d(obs_channels, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.core = nn.LSTMCell(64 + n_actions + 1, hidden)
        self.value = nn.Linear(hidden, 1)
        self.advantage = nn.Linear(hidden, n_actions)

    def initial_state(self, batch):
        return torch.zeros(batch, self.hidden), torch.zeros(batch, self.hidden)

    def forward(self, obs, prev_action, prev_reward, state=None):
        feat = self.encoder(obs)
        a = F.one_hot(prev_action, self.n_actions).float()
        core_in = torch.cat([feat, a, prev_reward.clamp(-1.0, 1.0).unsqueeze(-1)], dim=-1)
        h, c = self.core(core_in, state)
        adv = self.advantage(h)
        q = self.value(h) + adv - adv.mean(dim=-1, keepdim=True)
        return q, (h, c)


def act(net, obs, prev_action, prev_reward, state, epsilon=0.05):
    with torch.no_grad():
        q, state = net(obs, prev_action, prev_reward, state)
    greedy = q.argmax(dim=-1)
    explore = torch.rand(greedy.shape) < epsilon
    random_a = torch.randint(0, net.n_actions, greedy.shape)
    return torch.where(explore, random_a, greedy), state
