import torch
import torch.nn as nn


class FlowCritic(nn.Module):
    def __init__(self, n_feat=96, width=128, bounded=True):
        super().__init__()
        self.embed = nn.Linear(n_feat, width)
        self.expand = nn.Linear(width, 2 * width)
        if bounded:
            self.head = nn.Sequential(nn.Linear(2 * width, 1), nn.Sigmoid())
        else:
            self.head = nn.Sequential(nn.Linear(2 * width, 1), nn.Tanh())

    def forward(self, flows):
        h = torch.relu(self.embed(flows))
        h = torch.relu(self.expand(h))
        return self.head(h)


class FlowForger(nn.Module):
    def __init__(self, n_feat=96, n_noise=16, width=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_feat + n_noise, width), nn.ReLU(),
            nn.Linear(width, n_feat), nn.Sigmoid(),
        )

    def forward(self, flows, noise):
        return self.net(torch.cat([flows, noise], dim=1))


def critic_step(critic, opt, real, fake, real_score, fake_score):
    opt.zero_grad()
    loss = nn.functional.mse_loss(critic(real), real_score)
    loss = loss + nn.functional.mse_loss(critic(fake.detach()), fake_score)
    loss.backward()
    opt.step()
    return loss.item()
