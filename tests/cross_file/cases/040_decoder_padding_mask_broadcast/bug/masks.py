import torch


def causal_mask(size, device=None):
    return torch.triu(torch.ones(size, size, dtype=torch.bool, device=device), diagonal=1)


def padding_mask(tokens, pad_id):
    return tokens == pad_id


def lengths_to_tokens(lengths, max_len, vocab_size, pad_id, generator=None):
    tokens = torch.randint(pad_id + 1, vocab_size, (len(lengths), max_len), generator=generator)
    for i, n in enumerate(lengths):
        tokens[i, n:] = pad_id
    return tokens
