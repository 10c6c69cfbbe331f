import torch


def build_vocab(tokens):
    vocab = {}
    for tok in tokens:
        if tok not in vocab:
            vocab[tok] = len(vocab)
    return vocab


def encode(tokens, vocab):
    return torch.tensor([vocab[t] for t in tokens], dtype=torch.long)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt=35):
    seq_len = min(bptt, source.size(0) - 1 - i)
    inputs = source[i:i + seq_len]
    targets = source[i + 1:i + 1 + seq_len].reshape(-1)
    return inputs, targets


if __name__ == "__main__":
    text = "the quick brown fox jumps over the lazy dog " * 333
    tokens = text.split() + ["<eos>"]
    vocab = build_vocab(tokens)
    data = encode(tokens, vocab)
    train = batchify(data, bsz=20)
    x, y = get_batch(train, 0)
    print(x.shape, y.shape)
