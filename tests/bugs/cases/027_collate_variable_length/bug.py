import torch
import torch.nn as nn


def collate(batch):
    """batch: list of (token_ids, label) pairs from a text dataset."""
    seqs = [torch.as_tensor(ids, dtype=torch.long) for ids, _ in batch]
    labels = torch.tensor([label for _, label in batch])
    lengths = torch.tensor([len(s) for s in seqs])
    padded = torch.stack(seqs)
    return padded, lengths, labels


def make_fake_dataset(n=6, vocab=100):
    g = torch.Generator().manual_seed(0)
    data = []
    for i in range(n):
        length = 5 + (i * 3) % 7
        data.append((torch.randint(1, vocab, (length,), generator=g).tolist(), i % 2))
    return data


if __name__ == "__main__":
    dataset = make_fake_dataset()
    tokens, lengths, labels = collate(dataset[:4])
    print(tokens.shape, lengths.tolist(), labels.tolist())
