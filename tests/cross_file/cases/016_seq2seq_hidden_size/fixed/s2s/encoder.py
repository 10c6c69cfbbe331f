import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden_size, batch_first=True)

    def forward(self, src):
        outputs, hidden = self.rnn(self.embed(src))
        return outputs, hidden
