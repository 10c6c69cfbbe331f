import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, tgt, hidden):
        output, hidden = self.rnn(self.embed(tgt), hidden)
        return self.out(output), hidden
