import torch
import torch.nn as nn
import torch.nn.functional as F


class DuelingConvQ(nn.Module):
    def __init__(self, n_actions, frames=4):
        super().__init__()
        self.torso = nn.Sequential(
            nn.Conv2d(frames, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
            nn.Flatten(),
        )
        self.value = nn.Sequential(nn.Linear(64 * 7 * 7, 256), nn.ReLU(), nn.Linear(256, 1))
        self.advantage = nn.Sequential(nn.Linear(64 * 7 * 7, 256), nn.ReLU(), nn.Linear(256, n_actions))

    def forward(self, obs):
        h = self.torso(obs / 255.0)
        v = self.value(h)
        adv = self.advantage(h)
        return v + adv - adv.mean(dim=1, keepdim=True)


def td_loss(online, target, batch, gamma=0.99):
    obs, actions, rewards, next_obs, done = batch
    q = online(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_a = online(next_obs).argmax(dim=1, keepdim=True)
        next_q = target(next_obs).gather(1, next_a).squeeze(1)
        y = rewards + gamma * (1 - done) * next_q
    return F.smooth_l1_loss(q, y)


if __name__ == "__main__":
    online, target = DuelingConvQ(6), DuelingConvQ(6)
    target.load_state_dict(online.state_dict())
    n = 32
    batch = (torch.randint(0, 256, (n, 4, 84, 84)).float(), torch.randint(0, 6, (n,)),
             torch.randn(n), torch.randint(0, 256, (n, 4, 84, 84)).float(), torch.zeros(n))
    print(td_loss(online, target, batch).item())
