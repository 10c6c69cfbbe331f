import torch
import torch.nn as nn
import torch.nn.functional as F


def training_step(model, optimizer, inputs, labels):
    """labels: integer class ids stored as a [batch, 1] column in the dataset."""
    model.train()
    optimizer.zero_grad()
    logits = model(inputs)
    loss = F.cross_entropy(logits, labels.squeeze(1))
    loss.backward()
    optimizer.step()
    return loss.item()


def accuracy(model, inputs, labels):
    with torch.no_grad():
        return (model(inputs).argmax(dim=1) == labels.squeeze(1)).float().mean().item()
