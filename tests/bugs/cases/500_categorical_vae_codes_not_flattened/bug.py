import torch
import torch.nn as nn
import torch.nn.functional as F

N_BOOKS = 8


class CategoricalVAE(nn.Module):
    def __init__(self, d_in=784, book_size=16, hidden=256, tau=0.7):
        super().__init__()
        self.book_size = book_size
        self.tau = tau
        self.enc = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, N_BOOKS * book_size))
        self.dec = nn.Sequential(nn.Linear(N_BOOKS * book_size, hidden), nn.ReLU(), nn.Linear(hidden, d_in))

    def encode(self, x):
        logits = self.enc(x).view(x.size(0), N_BOOKS, self.book_size)
        return logits

    def forward(self, x):
        logits = self.encode(x)
        codes = F.gumbel_softmax(logits, tau=self.tau, hard=False, dim=-1)
        recon = self.dec(codes)
        q = logits.softmax(dim=-1)
        kl = (q * (q.clamp_min(1e-9).log() + torch.log(torch.tensor(float(self.book_size))))).sum(dim=(1, 2))
        return torch.sigmoid(recon), kl.mean()


def elbo_loss(model, x):
    recon, kl = model(x)
    return F.binary_cross_entropy(recon, x, reduction="sum") / x.size(0) + kl
