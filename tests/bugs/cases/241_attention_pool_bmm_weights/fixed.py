import torch
import torch.nn.functional as F


def attention_pool(hidden, query, mask=None):
    b, t, d = hidden.shape
    scores = torch.einsum("btd,d->bt", hidden, query) / d ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = F.softmax(scores, dim=1)
    context = torch.bmm(weights.unsqueeze(1), hidden).squeeze(1)
    return context, weights


def pool_documents(sentence_states, query, lengths):
    t = sentence_states.shape[1]
    mask = torch.arange(t)[None, :] < lengths[:, None]
    context, _ = attention_pool(sentence_states, query, mask)
    return context
