import torch
import torch.nn as nn
import torch.nn.functional as F


class DuelingMLP(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.value = nn.Linear(hidden, 1)
        self.advantage = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        h = self.trunk(obs)
        adv = self.advantage(h)
        return self.value(h) + adv - adv.mean(dim=-1, keepdim=True)


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.rewards = torch.zeros(capacity)
        self.dones = torch.zeros(capacity)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def add(self, obs, action, reward, next_obs, done):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i], self.next_obs[i], self.dones[i] = obs, action, reward, next_obs, done
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


class DQNAgent:
    def __init__(self, obs_dim, n_actions, capacity=10000, batch_size=32, gamma=0.99, lr=1e-3, hidden=128):
        self.online = DuelingMLP(obs_dim, n_actions, hidden)
        self.target = DuelingMLP(obs_dim, n_actions, hidden)
        self.target.load_state_dict(self.online.state_dict())
        self.buffer = ReplayBuffer(capacity, obs_dim)
        self.opt = torch.optim.Adam(self.online.parameters(), lr=lr)
        self.n_actions, self.batch_size, self.gamma = n_actions, batch_size, gamma

    def act(self, obs, eps=0.1):
        if torch.rand(()) < eps:
            return int(torch.randint(0, self.n_actions, ()))
        with torch.no_grad():
            return int(self.online(obs.unsqueeze(0)).argmax(dim=1))

    def update(self):
        obs, actions, rewards, next_obs, dones = self.buffer.sample(self.batch_size)
        q = self.online(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_actions = self.online(next_obs).argmax(dim=1, keepdim=True)
            next_q = self.target(next_obs).gather(1, next_actions).squeeze(1)
            td_target = rewards + self.gamma * (1.0 - dones) * next_q
        loss = F.smooth_l1_loss(q, td_target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def random_rollout(agent, obs_dim, steps):
    obs = torch.randn(obs_dim)
    for _ in range(steps):
        action = agent.act(obs, eps=0.5)
        next_obs, reward, done = torch.randn(obs_dim), float(torch.rand(())), float(torch.rand(()) < 0.05)
        agent.buffer.add(obs, action, reward, next_obs, done)
        obs = torch.randn(obs_dim) if done else next_obs
    return agent.update()
