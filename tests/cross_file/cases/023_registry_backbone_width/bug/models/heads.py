import torch.nn as nn


class ClassifierHead(nn.Module):
    def __init__(self, in_dim, num_classes, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(in_dim, num_classes)

    def forward(self, feats):
        return self.fc(self.drop(feats))
