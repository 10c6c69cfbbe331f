import string
import torch
import torch.nn as nn


class CharCNN(nn.Module):
    def __init__(self, vocab_size, emb_dim=16, n_filters=64, n_classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.conv = nn.Conv1d(emb_dim, n_filters, kernel_size=3, padding=1)
        self.fc = nn.Linear(n_filters, n_classes)

    def forward(self, chars):
        x = self.embed(chars).transpose(1, 2)
        x = torch.relu(self.conv(x)).max(dim=2).values
        return self.fc(x)


ALPHABET = string.ascii_lowercase


def encode(word, max_len=16):
    ids = [ALPHABET.index(c) + 1 for c in word.lower() if c in ALPHABET][:max_len]
    return ids + [0] * (max_len - len(ids))


if __name__ == "__main__":
    words = ["hello", "pytorch", "quiz", "jazzy", "abc"]
    batch = torch.tensor([encode(w) for w in words])
    model = CharCNN(vocab_size=len(ALPHABET))
    print(model(batch).argmax(dim=1))
