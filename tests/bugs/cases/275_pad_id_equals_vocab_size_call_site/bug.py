from collections import Counter

import torch
import torch.nn as nn


def build_vocab(texts, min_freq=1, specials=("<unk>",)):
    counter = Counter(tok for t in texts for tok in t.lower().split())
    itos = list(specials) + sorted(w for w, c in counter.items() if c >= min_freq)
    return {w: i for i, w in enumerate(itos)}


def encode(text, vocab):
    return [vocab.get(tok, vocab["<unk>"]) for tok in text.lower().split()]


def collate(batch, pad_id):
    lengths = torch.tensor([len(ids) for ids, _ in batch])
    ids = torch.full((len(batch), int(lengths.max())), pad_id, dtype=torch.long)
    for i, (seq, _) in enumerate(batch):
        ids[i, : len(seq)] = torch.tensor(seq)
    labels = torch.tensor([y for _, y in batch])
    return ids, labels


class MeanPoolClassifier(nn.Module):
    def __init__(self, num_embeddings, pad_id, dim=64, num_classes=2):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(num_embeddings, dim)
        self.fc = nn.Linear(dim, num_classes)

    def forward(self, ids):
        mask = (ids != self.pad_id).unsqueeze(-1).float()
        emb = self.embed(ids) * mask
        pooled = emb.sum(dim=1) / mask.sum(dim=1).clamp(min=1)
        return self.fc(pooled)


if __name__ == "__main__":
    train = [
        ("the movie was great", 1),
        ("terrible plot and really bad acting", 0),
        ("great cast", 1),
        ("not good at all", 0),
    ]
    vocab = build_vocab([t for t, _ in train])
    pad_id = len(vocab)
    model = MeanPoolClassifier(len(vocab), pad_id)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    batch = [(encode(t, vocab), y) for t, y in train]
    ids, labels = collate(batch, pad_id)
    loss = nn.functional.cross_entropy(model(ids), labels)
    loss.backward()
    optimizer.step()
    print(loss.item())
