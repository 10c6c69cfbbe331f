import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = ["<blank>", " ", "'"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]


class DeepSpeechLite(nn.Module):
    def __init__(self, n_mels=80, hidden=256, n_classes=len(VOCAB)):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 32, (11, 41), stride=(2, 2), padding=(5, 20)), nn.BatchNorm2d(32), nn.Hardtanh(0, 20),
            nn.Conv2d(32, 32, (11, 21), stride=(1, 2), padding=(5, 10)), nn.BatchNorm2d(32), nn.Hardtanh(0, 20),
        )
        freq = (n_mels + 1) // 2
        freq = (freq + 1) // 2
        self.rnn = nn.GRU(32 * freq, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, feats, lengths):
        x = self.conv(feats.unsqueeze(1))
        b, c, t, f = x.shape
        x = x.permute(0, 2, 1, 3).reshape(b, t, c * f)
        x, _ = self.rnn(x)
        out_lengths = (lengths + 1) // 2
        return self.fc(x).log_softmax(dim=-1), out_lengths


def encode_text(texts):
    ids = [torch.tensor([VOCAB.index(ch) for ch in t]) for t in texts]
    return torch.cat(ids), torch.tensor([len(t) for t in ids])


def ctc_step(model, feats, feat_lengths, texts, opt):
    log_probs, out_lengths = model(feats, feat_lengths)
    targets, target_lengths = encode_text(texts)
    loss = F.ctc_loss(log_probs.transpose(0, 1), targets, out_lengths, target_lengths, blank=0, zero_infinity=True)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 400.0)
    opt.step()
    return loss.item()


if __name__ == "__main__":
    texts = ["hello world", "speech recognition", "it's a test", "deep speech"]
    feat_lengths = torch.tensor([200, 180, 150, 120])
    feats = torch.randn(4, 200, 80)
    model = DeepSpeechLite()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    print(ctc_step(model, feats, feat_lengths, texts, opt))
