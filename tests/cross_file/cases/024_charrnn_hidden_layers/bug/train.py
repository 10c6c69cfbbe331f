import torch
import torch.nn.functional as F

from seqmodels.charrnn import CharRNN
from seqmodels.text import ALPHABET, encode

TEXT = "the quick brown fox jumps over the lazy dog. " * 4
BATCH, SEQ = 4, 32


def init_hidden(batch_size, hidden_size):
    return torch.zeros(1, batch_size, hidden_size)


def main():
    torch.manual_seed(0)
    model = CharRNN(len(ALPHABET), hidden_size=128, num_layers=2)
    data = encode(TEXT)
    starts = torch.randint(0, len(data) - SEQ - 1, (BATCH,)).tolist()
    x = torch.stack([data[s:s + SEQ] for s in starts])
    y = torch.stack([data[s + 1:s + SEQ + 1] for s in starts])
    logits, _ = model(x, init_hidden(BATCH, 128))
    loss = F.cross_entropy(logits.reshape(-1, len(ALPHABET)), y.reshape(-1))
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
