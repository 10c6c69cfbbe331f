import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenEncoder(nn.Module):
    def __init__(self, vocab, emb, hidden, layers):
        super().__init__()
        self.layers = layers
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, num_layers=layers, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hidden, hidden)

    def forward(self, code_ids):
        states, h_n = self.rnn(self.embed(code_ids))
        last = torch.cat([h_n[-2], h_n[-1]], dim=-1)
        h0 = torch.tanh(self.bridge(last)).unsqueeze(0).repeat(self.layers, 1, 1)
        return states, h0


class SummaryDecoder(nn.Module):
    def __init__(self, vocab, emb, hidden, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb + 2 * hidden, hidden, num_layers=layers, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, prev_tokens, states, h0):
        context = states.mean(dim=1, keepdim=True).expand(-1, prev_tokens.size(1), -1)
        x = torch.cat([self.embed(prev_tokens), context], dim=-1)
        y, _ = self.rnn(x, h0)
        return self.out(y)


class CodeSummarizer(nn.Module):
    def __init__(self, code_vocab, text_vocab, emb=64, hidden=128, layers=1):
        super().__init__()
        self.encoder = TokenEncoder(code_vocab, emb, hidden, layers)
        self.decoder = SummaryDecoder(text_vocab, emb, hidden, layers)

    def forward(self, code_ids, summary_in):
        states, h0 = self.encoder(code_ids)
        return self.decoder(summary_in, states, h0)


def train_step(model, opt, code_ids, summary):
    logits = model(code_ids, summary[:, :-1])
    loss = F.cross_entropy(logits.transpose(1, 2), summary[:, 1:], ignore_index=0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    model = CodeSummarizer(code_vocab=5000, text_vocab=3000, layers=3)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    code_ids = torch.randint(1, 5000, (16, 60))
    summary = torch.randint(1, 3000, (16, 12))
    print(train_step(model, opt, code_ids, summary))
