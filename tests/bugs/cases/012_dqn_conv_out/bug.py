import torch
import torch.nn as nn


class DQN(nn.Module):
    def __init__(self, in_frames=4, n_actions=6):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_frames, 32, kernel_size=8, stride=4),
            nn.ReLU(),
            nn.Conv2d(32, 64, kernel_size=4, stride=2),
            nn.ReLU(),
            nn.Conv2d(64, 64, kernel_size=3, stride=1),
            nn.ReLU(),
        )
        self.fc = nn.Sequential(
            nn.Linear(64 * 9 * 9, 512),
            nn.ReLU(),
            nn.Linear(512, n_actions),
        )

    def forward(self, x):
        x = self.conv(x / 255.0)
        return self.fc(x.view(x.size(0), -1))


def select_action(net, state, epsilon=0.05):
    if torch.rand(1).item() < epsilon:
        return torch.randint(0, 6, (state.size(0),))
    with torch.no_grad():
        return net(state).argmax(dim=1)


if __name__ == "__main__":
    policy = DQN()
    frames = torch.randint(0, 255, (2, 4, 84, 84)).float()
    print(select_action(policy, frames, epsilon=0.0))
