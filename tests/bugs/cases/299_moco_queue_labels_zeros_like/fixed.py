import torch
import torch.nn.functional as F


def contrastive_logits(q, k, queue, temperature=0.07):
    q = F.normalize(q, dim=1)
    k = F.normalize(k, dim=1)
    l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
    l_neg = torch.einsum("nc,kc->nk", q, queue)
    logits = torch.cat([l_pos, l_neg], dim=1) / temperature
    return logits, l_pos


def moco_loss(q, k, queue, temperature=0.07):
    logits, l_pos = contrastive_logits(q, k.detach(), queue, temperature)
    labels = torch.zeros(l_pos.size(0), dtype=torch.long)
    return F.cross_entropy(logits, labels)


@torch.no_grad()
def momentum_update(online_params, target_params, m=0.999):
    for p_o, p_t in zip(online_params, target_params):
        p_t.mul_(m).add_(p_o, alpha=1.0 - m)


@torch.no_grad()
def enqueue(queue, keys, ptr):
    n = keys.size(0)
    size = queue.size(0)
    idx = (torch.arange(n) + ptr) % size
    queue[idx] = F.normalize(keys, dim=1)
    return (ptr + n) % size
