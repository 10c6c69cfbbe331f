import torch
import torch.nn as nn
import torch.nn.functional as F


class FiLMResBlock(nn.Module):
    def __init__(self, channels, cond_dim):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.norm = nn.BatchNorm2d(channels, affine=False)
        self.film = nn.Linear(cond_dim, 2 * channels)

    def forward(self, x, cond):
        gamma, beta = self.film(cond).chunk(2, dim=-1)
        h = F.relu(self.conv1(x))
        h = self.norm(self.conv2(h))
        h = h * (1 + gamma[:, :, None, None]) + beta[:, :, None, None]
        return x + F.relu(h)


class FiLMedNet(nn.Module):
    def __init__(self, vocab_size=100, q_dim=128, channels=64, n_blocks=3, n_answers=28):
        super().__init__()
        self.q_emb = nn.Embedding(vocab_size, q_dim)
        self.q_rnn = nn.GRU(q_dim, q_dim, batch_first=True)
        self.stem = nn.Conv2d(3, channels, kernel_size=3, padding=1)
        self.blocks = nn.ModuleList(FiLMResBlock(channels, q_dim) for _ in range(n_blocks))
        self.head = nn.Linear(channels, n_answers)

    def forward(self, image, question):
        _, q = self.q_rnn(self.q_emb(question))
        q = q[-1]
        x = F.relu(self.stem(image))
        for block in self.blocks:
            x = block(x, q)
        return self.head(x.mean(dim=(2, 3)))


if __name__ == "__main__":
    model = FiLMedNet()
    images = torch.randn(4, 3, 32, 32)
    questions = torch.randint(0, 100, (4, 12))
    print(model(images, questions).shape)
