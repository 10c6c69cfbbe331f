import torch
import torch.nn as nn
import torch.nn.functional as F


class IntentCNN(nn.Module):
    def __init__(self, vocab_size=2000, emb_dim=64, n_filters=32, kernel_sizes=(3, 4, 5), n_intents=7):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(emb_dim, n_filters, k) for k in kernel_sizes])
        self.fc = nn.Linear(n_filters * len(kernel_sizes), n_intents)

    def forward(self, ids):
        x = self.emb(ids).transpose(1, 2)
        feats = []
        for conv in self.convs:
            feats.append(F.relu(conv(x)).amax(dim=-1))
        return self.fc(torch.cat(feats, dim=1))


def encode(words, vocab, min_len=5):
    ids = [vocab.get(w, 1) for w in words]
    ids = ids + [0] * max(0, min_len - len(ids))
    return torch.tensor([ids])


if __name__ == "__main__":
    vocab = {w: i + 2 for i, w in enumerate("turn on off the lights music play stop".split())}
    model = IntentCNN().eval()
    with torch.no_grad():
        logits = model(encode("turn off lights".split(), vocab))
    print(logits.argmax(-1).item())
