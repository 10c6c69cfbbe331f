import torch
import torch.nn as nn

SKELETON = [(0, 1), (1, 2), (2, 3), (3, 4), (1, 5), (5, 6), (6, 7), (1, 8), (8, 9), (9, 10),
            (8, 11), (11, 12), (12, 13), (0, 14), (14, 15), (0, 16)]


def normalized_adjacency(n, edges):
    a = torch.eye(n)
    for i, j in edges:
        a[i, j] = a[j, i] = 1.0
    d = a.sum(dim=1).rsqrt()
    return d[:, None] * a * d[None, :]


def ring_adjacency(k):
    return normalized_adjacency(k, [(i, (i + 1) % k) for i in range(k)])


class CandidateGraphLayer(nn.Module):
    def __init__(self, d_in, d_out, adjacency):
        super().__init__()
        self.register_buffer("adjacency", adjacency)
        self.neigh = nn.Linear(d_in, d_out)
        self.self_loop = nn.Linear(d_in, d_out)

    def forward(self, feats):
        mixed = self.adjacency @ self.neigh(feats)
        return torch.relu(mixed + self.self_loop(feats))


class CandidateScorer(nn.Module):
    def __init__(self, d_feat, hidden, adjacency):
        super().__init__()
        self.g1 = CandidateGraphLayer(d_feat, hidden, adjacency)
        self.g2 = CandidateGraphLayer(hidden, hidden, adjacency)
        self.score = nn.Linear(hidden, 1)

    def forward(self, feats):
        h = self.g2(self.g1(feats))
        return self.score(h).squeeze(-1).softmax(dim=-1)


if __name__ == "__main__":
    n_joints, n_candidates, d_feat = 17, 9, 64
    feats = torch.randn(2, n_joints, n_candidates, d_feat)
    adjacency = normalized_adjacency(n_joints, SKELETON)
    scorer = CandidateScorer(d_feat, 32, adjacency)
    weights = scorer(feats)
    print(weights.shape, weights.sum(dim=-1))
