import torch
import torch.nn.functional as F


def token_classification_loss(logits, labels, attention_mask):
    b, t, num_labels = logits.shape
    labels = labels.masked_fill(attention_mask == 0, -100)
    return F.cross_entropy(logits.reshape(-1, num_labels), labels.reshape(-1), ignore_index=-100)


def token_accuracy(logits, labels, attention_mask):
    preds = logits.argmax(dim=-1)
    active = attention_mask.bool()
    correct = (preds == labels) & active
    return correct.sum().float() / active.sum().clamp(min=1)
