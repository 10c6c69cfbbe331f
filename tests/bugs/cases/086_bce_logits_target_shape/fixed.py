import torch
import torch.nn as nn


class SpamClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, emb_dim, mode="mean")
        self.fc = nn.Linear(emb_dim, 1)
        self.criterion = nn.BCEWithLogitsLoss()

    def forward(self, token_ids, offsets, labels=None):
        logits = self.fc(self.emb(token_ids, offsets))
        if labels is None:
            return torch.sigmoid(logits)
        return self.criterion(logits, labels.float().unsqueeze(1))


def predict(model, token_ids, offsets, threshold=0.5):
    with torch.no_grad():
        return (model(token_ids, offsets).squeeze(1) > threshold).long()
