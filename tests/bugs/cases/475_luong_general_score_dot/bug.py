import torch
import torch.nn as nn
import torch.nn.functional as F


class GeneralScorer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden, bias=False)

    def forward(self, dec_state, enc_states):
        steps = enc_states.size(0)
        scores = []
        for t in range(steps):
            keyed = self.proj(enc_states[t])
            scores.append(torch.dot(dec_state, keyed))
        weights = F.softmax(torch.stack(scores), dim=0)
        context = (weights.view(steps, 1, 1) * enc_states).sum(0)
        return context, weights


class StepDecoder(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.gru = nn.GRUCell(2 * hidden, hidden)
        self.score = GeneralScorer(hidden)
        self.out = nn.Linear(2 * hidden, vocab)

    def forward(self, token, context, state, enc_states):
        x = torch.cat([self.embed(token), context], dim=1)
        state = self.gru(x, state)
        context, weights = self.score(state, enc_states)
        logits = self.out(torch.cat([state, context], dim=1))
        return logits, context, state, weights


def greedy(decoder, enc_states, steps=5, bos=1):
    hidden = enc_states.size(-1)
    token = torch.tensor([bos])
    context, state = torch.zeros(1, hidden), enc_states[-1]
    out = []
    for _ in range(steps):
        logits, context, state, _ = decoder(token, context, state, enc_states)
        token = logits.argmax(dim=1)
        out.append(token.item())
    return out
