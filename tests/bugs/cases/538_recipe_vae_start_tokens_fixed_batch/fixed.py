import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

BATCH_SIZE = 32
VOCAB = 500
BOS = 1
MAX_LEN = 12


class RecipeVAE(nn.Module):
    def __init__(self, vocab=VOCAB, emb=64, hidden=128, latent=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.enc = nn.LSTM(emb, hidden, batch_first=True)
        self.mu = nn.Linear(hidden, latent)
        self.logvar = nn.Linear(hidden, latent)
        self.z_to_h = nn.Linear(latent, hidden)
        self.dec = nn.LSTM(vocab, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def encode(self, tokens):
        _, (h, _) = self.enc(self.embed(tokens))
        return self.mu(h[-1]), self.logvar(h[-1])

    def decode_greedy(self, z):
        h = torch.tanh(self.z_to_h(z)).unsqueeze(0)
        state = (h, torch.zeros_like(h))
        step = torch.zeros(z.size(0), 1, VOCAB)
        step[:, 0, BOS] = 1.0
        logits = []
        for _ in range(MAX_LEN):
            y, state = self.dec(step, state)
            logit = self.out(y)
            logits.append(logit)
            step = F.one_hot(logit.argmax(-1), VOCAB).float()
        return torch.cat(logits, dim=1)


def epoch(model, loader, opt):
    for (tokens,) in loader:
        mu, logvar = model.encode(tokens)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        logits = model.decode_greedy(z)
        rec = F.cross_entropy(logits.transpose(1, 2), tokens)
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
        opt.zero_grad()
        (rec + 0.1 * kl).backward()
        opt.step()
    return rec.item()


if __name__ == "__main__":
    recipes = torch.randint(2, VOCAB, (100, MAX_LEN))
    loader = DataLoader(TensorDataset(recipes), batch_size=BATCH_SIZE, shuffle=True)
    model = RecipeVAE()
    print(epoch(model, loader, torch.optim.Adam(model.parameters(), lr=1e-3)))
