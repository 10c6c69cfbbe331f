import torch
import torch.nn.functional as F


def smooth_targets(labels, num_classes, smoothing):
    one_hot = F.one_hot(labels, num_classes).float()
    return one_hot * (1.0 - smoothing) + smoothing / num_classes


def smoothed_loss(logits, labels, smoothing=0.1, ignore_index=-100):
    num_classes = logits.size(-1)
    logits = logits.reshape(-1, num_classes)
    labels = labels.reshape(-1)
    keep = labels != ignore_index
    logits, labels = logits[keep], labels[keep]
    targets = smooth_targets(labels, num_classes, smoothing)
    log_probs = F.log_softmax(logits, dim=-1)
    return F.nll_loss(log_probs, targets)


def accuracy(logits, labels, ignore_index=-100):
    pred = logits.argmax(dim=-1)
    keep = labels != ignore_index
    return (pred[keep] == labels[keep]).float().mean()
