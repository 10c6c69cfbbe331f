PAD, CLS, SEP = 0, 1, 2
FIRST_WORD_ID = 3


def encode(word_ids, max_len):
    ids = [CLS] + list(word_ids[: max_len - 1]) + [SEP]
    return ids + [PAD] * (max_len - len(ids))


def decode(ids):
    return [i for i in ids if i >= FIRST_WORD_ID]
