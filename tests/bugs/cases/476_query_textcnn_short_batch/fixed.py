import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID = 0


class QueryCNN(nn.Module):
    def __init__(self, vocab, n_intents, dim=64, widths=(2, 3, 4), maps=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=PAD_ID)
        self.convs = nn.ModuleList(nn.Conv1d(dim, maps, w) for w in widths)
        self.fc = nn.Linear(maps * len(widths), n_intents)

    def forward(self, ids):
        x = self.embed(ids).transpose(1, 2)
        pooled = []
        for conv in self.convs:
            pooled.append(F.relu(conv(x)).amax(dim=2))
        return self.fc(torch.cat(pooled, dim=1))


def collate_queries(queries):
    width = max(4, max(len(q) for q in queries))
    batch = torch.full((len(queries), width), PAD_ID, dtype=torch.long)
    for row, q in enumerate(queries):
        batch[row, : len(q)] = torch.tensor(q)
    return batch


if __name__ == "__main__":
    vocab = {w: i + 1 for i, w in enumerate("cheap flights to paris weather today book hotel near me".split())}
    queries = ["cheap flights", "weather today", "book hotel", "hotel near me", "flights to paris"]
    ids = [[vocab[w] for w in q.split()] for q in queries]
    model = QueryCNN(vocab=len(vocab) + 1, n_intents=3)
    logits = model(collate_queries(ids))
    print(logits.argmax(dim=1))
