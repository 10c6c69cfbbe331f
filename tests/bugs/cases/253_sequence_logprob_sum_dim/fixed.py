import torch
import torch.nn.functional as F


def sequence_log_probs(logits, targets, pad_id=0):
    b, t, v = logits.shape
    log_probs = F.log_softmax(logits, dim=-1)
    token_lp = log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    mask = (targets != pad_id).float()
    return (token_lp * mask).sum(dim=1)


def rerank(candidate_logits, candidate_targets, length_penalty=0.6):
    scores = sequence_log_probs(candidate_logits, candidate_targets)
    lengths = (candidate_targets != 0).sum(dim=1).clamp(min=1).float()
    normed = scores / lengths ** length_penalty
    return normed.argsort(descending=True)
