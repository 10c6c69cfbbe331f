import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoderScorer(nn.Module):
    def __init__(self, dim=128, temperature=0.05):
        super().__init__()
        self.query_proj = nn.Linear(dim, dim)
        self.temperature = temperature

    def forward(self, queries, docs):
        """queries: [batch, n_q, dim]; docs: [batch, n_docs, dim] (precomputed embeddings)."""
        q = F.normalize(self.query_proj(queries), dim=-1)
        d = F.normalize(docs, dim=-1)
        return torch.bmm(q, d.transpose(1, 2)) / self.temperature


if __name__ == "__main__":
    scorer = DualEncoderScorer(dim=128)
    queries = torch.randn(4, 5, 128)
    doc_index = torch.randn(4, 20, 256)
    scores = scorer(queries, doc_index)
    print(scores.topk(3, dim=-1).indices.shape)
