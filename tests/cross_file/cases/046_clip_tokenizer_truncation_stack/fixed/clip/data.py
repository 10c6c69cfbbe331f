import torch

from . import tokenizer


def random_captions(lengths, vocab_size):
    return [torch.randint(tokenizer.FIRST_WORD_ID, vocab_size, (n,)).tolist() for n in lengths]


def random_images(n, size):
    return [torch.rand(3, size, size) for _ in range(n)]


def collate(images, captions, max_len):
    ids = torch.stack([torch.tensor(tokenizer.encode(c, max_len)) for c in captions])
    return torch.stack(images), ids, ids != tokenizer.PAD
