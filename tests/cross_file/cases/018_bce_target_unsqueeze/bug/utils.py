def make_targets(labels):
    return labels.float().unsqueeze(1)


def accuracy(logits, targets):
    preds = (logits > 0).float()
    return (preds == targets).float().mean().item()
