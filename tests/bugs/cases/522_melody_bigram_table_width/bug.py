import torch
import torch.nn as nn
import torch.nn.functional as F


class MelodyBigram(nn.Module):
    def __init__(self, n_pitches, hidden=96):
        super().__init__()
        self.n_pitches = n_pitches
        self.table = nn.Embedding(n_pitches, hidden)

    def forward(self, notes, targets=None):
        scores = self.table(notes)
        if targets is None:
            return scores, None
        loss = F.cross_entropy(scores.flatten(0, 1), targets.flatten())
        return scores, loss

    @torch.no_grad()
    def continue_melody(self, seed_notes, steps):
        seq = seed_notes
        for _ in range(steps):
            scores, _ = self(seq[:, -1:])
            probs = scores[:, -1].softmax(dim=-1)
            nxt = torch.multinomial(probs, 1)
            seq = torch.cat([seq, nxt], dim=1)
        return seq


def random_phrases(n_pitches, count, length):
    return torch.randint(0, n_pitches, (count, length + 1))


if __name__ == "__main__":
    pitches = 40
    model = MelodyBigram(pitches)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    phrases = random_phrases(pitches, 16, 12)
    _, loss = model(phrases[:, :-1], phrases[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    tune = model.continue_melody(torch.zeros(2, 1, dtype=torch.long), 64)
    print(tune.shape)
