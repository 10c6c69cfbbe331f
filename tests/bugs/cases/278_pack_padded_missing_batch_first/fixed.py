import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence


class IntentClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=100, hidden=128, num_intents=7, pad_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(2 * hidden, num_intents)

    def forward(self, tokens, lengths):
        emb = self.dropout(self.embedding(tokens))
        packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, h_n = self.rnn(packed)
        h = torch.cat([h_n[-2], h_n[-1]], dim=-1)
        return self.fc(self.dropout(h))


if __name__ == "__main__":
    torch.manual_seed(0)
    seqs = [torch.randint(1, 5000, (n,)) for n in (12, 7, 9, 3, 15, 5, 11, 8)]
    lengths = torch.tensor([len(s) for s in seqs])
    tokens = pad_sequence(seqs, batch_first=True)
    labels = torch.randint(0, 7, (len(seqs),))
    model = IntentClassifier(5000)
    loss = nn.functional.cross_entropy(model(tokens, lengths), labels)
    loss.backward()
    print(loss.item())
