import torch
import torch.nn as nn
import torch.nn.functional as F


class CharGRULM(nn.Module):
    def __init__(self, vocab, emb_dim, hidden, layers=2, dropout=0.1, tie=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb_dim)
        self.gru = nn.GRU(emb_dim, hidden, layers, batch_first=True, dropout=dropout)
        self.norm = nn.LayerNorm(hidden)
        self.out = nn.Linear(hidden, vocab, bias=False)
        if tie:
            self.out.weight = self.embed.weight

    def forward(self, ids, state=None):
        h, state = self.gru(self.embed(ids), state)
        return self.out(self.norm(h)), state


CONFIG = {"vocab": 96, "emb_dim": 64, "hidden": 192, "layers": 2, "dropout": 0.1, "tie": True}


def lm_step(model, opt, batch):
    logits, _ = model(batch[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), batch[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    model = CharGRULM(**CONFIG)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    batch = torch.randint(0, CONFIG["vocab"], (8, 65))
    print(lm_step(model, opt, batch))
