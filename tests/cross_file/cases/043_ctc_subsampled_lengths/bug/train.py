import torch
import torch.nn.functional as F

from frontend import output_lengths
from model import CTCModel

N_MELS = 80
VOCAB = 30
BLANK = 0


def main():
    torch.manual_seed(0)
    model = CTCModel(n_mels=N_MELS, vocab_size=VOCAB)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    feat_lengths = torch.tensor([200, 180, 150, 120])
    feats = torch.randn(len(feat_lengths), N_MELS, int(feat_lengths.max()))
    target_lengths = torch.tensor([20, 17, 12, 9])
    targets = torch.randint(1, VOCAB, (int(target_lengths.sum()),))
    log_probs = model(feats).transpose(0, 1)
    loss = F.ctc_loss(log_probs, targets, output_lengths(feat_lengths), target_lengths, blank=BLANK)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(tuple(log_probs.shape), loss.item())


if __name__ == "__main__":
    main()
