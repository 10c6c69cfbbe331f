import torch
import torch.nn as nn
import torch.nn.functional as F


class PointerNetwork(nn.Module):
    """Pointer network for 2-D Euclidean TSP (Vinyals et al., 2015)."""

    def __init__(self, hidden=128, clip=10.0):
        super().__init__()
        self.embed = nn.Linear(2, hidden)
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True)
        self.decoder = nn.LSTMCell(hidden, hidden)
        self.w_ref = nn.Linear(hidden, hidden, bias=False)
        self.w_q = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Parameter(torch.randn(hidden) * 0.1)
        self.start = nn.Parameter(torch.zeros(hidden))
        self.clip = clip

    def pointer_scores(self, ref, query):
        q = self.w_q(query)
        glimpse = torch.softmax(torch.bmm(q, self.w_ref(ref).transpose(1, 2)), dim=-1)
        q = torch.bmm(glimpse, ref).squeeze(1)
        u = torch.tanh(self.w_ref(ref) + self.w_q(q).unsqueeze(1)) @ self.v
        return self.clip * torch.tanh(u)

    def forward(self, coords):
        b, n, _ = coords.shape
        emb = self.embed(coords)
        ref, (h, c) = self.encoder(emb)
        h, c = h[0], c[0]
        inp = self.start.expand(b, -1)
        visited = torch.zeros(b, n, dtype=torch.bool)
        tour, log_probs = [], []
        for _ in range(n):
            h, c = self.decoder(inp, (h, c))
            scores = self.pointer_scores(ref, h).masked_fill(visited, float("-inf"))
            dist = torch.distributions.Categorical(logits=scores)
            idx = dist.sample()
            tour.append(idx)
            log_probs.append(dist.log_prob(idx))
            visited = visited.scatter(1, idx.unsqueeze(1), True)
            inp = emb[torch.arange(b), idx]
        return torch.stack(tour, 1), torch.stack(log_probs, 1).sum(1)


def tour_length(coords, tour):
    ordered = coords.gather(1, tour.unsqueeze(-1).expand(-1, -1, 2))
    return (ordered - ordered.roll(-1, dims=1)).norm(dim=-1).sum(1)


def reinforce_loss(model, coords, baseline):
    tour, log_prob = model(coords)
    advantage = tour_length(coords, tour) - baseline
    return (advantage.detach() * log_prob).mean()
