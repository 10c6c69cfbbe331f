import torch
import torch.nn as nn
import torch.nn.functional as F


class KimCNN(nn.Module):
    """Kim (2014) sentence CNN: 2-D convolutions spanning the full embedding width."""

    def __init__(self, vocab_size=10000, emb_dim=128, n_filters=64, windows=(3, 4, 5), n_classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb_dim)
        self.convs = nn.ModuleList(nn.Conv2d(1, n_filters, (w, emb_dim)) for w in windows)
        self.drop = nn.Dropout(0.5)
        self.fc = nn.Linear(n_filters * len(windows), n_classes)

    def forward(self, ids):
        x = self.emb(ids)
        feats = []
        for conv in self.convs:
            h = F.relu(conv(x)).squeeze(3)
            feats.append(F.max_pool1d(h, h.size(2)).squeeze(2))
        return self.fc(self.drop(torch.cat(feats, 1)))


if __name__ == "__main__":
    model = KimCNN()
    sentences = torch.randint(0, 10000, (8, 30))
    print(model(sentences).softmax(-1).shape)
