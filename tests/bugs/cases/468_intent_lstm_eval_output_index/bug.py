import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class IntentLSTM(nn.Module):
    def __init__(self, vocab, n_intents, emb=64, hidden=96):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_intents)

    def forward(self, tokens):
        mask = (tokens != PAD).unsqueeze(-1).float()
        states, _ = self.lstm(self.embed(tokens))
        pooled = (states * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.out(pooled)


@torch.no_grad()
def evaluate(model, batches):
    model.eval()
    total_loss, correct, seen = 0.0, 0, 0
    for tokens, intents in batches:
        logits = model(tokens)[0]
        total_loss += F.cross_entropy(logits, intents, reduction="sum").item()
        correct += (logits.argmax(-1) == intents).sum().item()
        seen += intents.numel()
    return total_loss / seen, correct / seen


def make_batches(n_batches, batch, max_len, vocab, n_intents):
    out = []
    for _ in range(n_batches):
        lengths = torch.randint(3, max_len + 1, (batch,))
        tokens = torch.randint(1, vocab, (batch, max_len))
        tokens[torch.arange(max_len)[None, :] >= lengths[:, None]] = PAD
        out.append((tokens, torch.randint(0, n_intents, (batch,))))
    return out


if __name__ == "__main__":
    model = IntentLSTM(vocab=800, n_intents=7)
    val = make_batches(3, 32, 20, 800, 7)
    print(evaluate(model, val))
