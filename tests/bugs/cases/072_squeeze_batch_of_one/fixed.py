import torch
import torch.nn as nn
import torch.nn.functional as F


class CandidateRanker(nn.Module):
    """Scores n candidate answers per query; trained with a listwise softmax loss."""

    def __init__(self, dim=64, hidden=128):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, query, candidates):
        """query: [batch, dim]; candidates: [batch, n, dim] -> log-probs [batch, n]."""
        q = query.unsqueeze(1).expand_as(candidates)
        scores = self.mlp(torch.cat([q, candidates], dim=-1)).squeeze(-1)
        return F.log_softmax(scores, dim=1)


if __name__ == "__main__":
    ranker = CandidateRanker().eval()
    query = torch.randn(1, 64)
    candidates = torch.randn(1, 5, 64)
    with torch.no_grad():
        best = ranker(query, candidates).argmax(dim=1)
    print(best)
