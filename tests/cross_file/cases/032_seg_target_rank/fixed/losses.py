import torch.nn.functional as F


def dice_loss(logits, target, eps=1e-6):
    probs = logits.softmax(dim=1)
    one_hot = F.one_hot(target, logits.size(1)).permute(0, 3, 1, 2).float()
    inter = (probs * one_hot).sum(dim=(2, 3))
    union = probs.sum(dim=(2, 3)) + one_hot.sum(dim=(2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def seg_loss(logits, target):
    return F.cross_entropy(logits, target) + dice_loss(logits, target)
