import torch
import torch.nn.functional as F


def skipgram_ns_loss(center_ids, context_ids, negative_ids, in_embed, out_embed):
    """center_ids, context_ids: [batch]; negative_ids: [batch, k]; embeddings: [vocab, dim]."""
    center = F.embedding(center_ids, in_embed)
    context = F.embedding(context_ids, out_embed)
    negatives = F.embedding(negative_ids, out_embed)
    pos_score = (center * context).sum(dim=-1)
    neg_score = torch.bmm(negatives, center).squeeze(2)
    pos_loss = F.logsigmoid(pos_score)
    neg_loss = F.logsigmoid(-neg_score).sum(dim=1)
    return -(pos_loss + neg_loss).mean()


def sample_batch(vocab_size, batch_size, k=5):
    center = torch.randint(0, vocab_size, (batch_size,))
    context = torch.randint(0, vocab_size, (batch_size,))
    negatives = torch.randint(0, vocab_size, (batch_size, k))
    return center, context, negatives
