import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS = 80


def collate_tts(batch, r):
    texts, mels = zip(*batch)
    max_text = max(t.size(0) for t in texts)
    max_mel = max(m.size(0) for m in mels)
    text_pad = torch.zeros(len(batch), max_text, dtype=torch.long)
    mel_pad = torch.zeros(len(batch), max_mel, N_MELS)
    stop = torch.ones(len(batch), max_mel)
    for i, (t, m) in enumerate(zip(texts, mels)):
        text_pad[i, : t.size(0)] = t
        mel_pad[i, : m.size(0)] = m
        stop[i, : m.size(0) - 1] = 0.0
    return text_pad, mel_pad, stop


def group_frames(mel, r):
    b, t, n = mel.shape
    return mel.reshape(b, t // r, n * r)


class Prenet(nn.Module):
    def __init__(self, in_dim, sizes=(256, 128)):
        super().__init__()
        dims = [in_dim] + list(sizes)
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x):
        for layer in self.layers:
            x = F.dropout(F.relu(layer(x)), 0.5, training=True)
        return x


class TeacherForcedDecoder(nn.Module):
    def __init__(self, r=3, hidden=256):
        super().__init__()
        self.r = r
        self.prenet = Prenet(N_MELS)
        self.rnn = nn.GRU(128, hidden, batch_first=True)
        self.mel_out = nn.Linear(hidden, N_MELS * r)
        self.stop_out = nn.Linear(hidden, r)

    def forward(self, mel, stop):
        grouped = group_frames(mel, self.r)
        go = torch.zeros_like(grouped[:, :1])
        prev = torch.cat([go, grouped[:, :-1]], dim=1)[..., -N_MELS:]
        h, _ = self.rnn(self.prenet(prev))
        mel_pred = self.mel_out(h).reshape_as(mel)
        stop_pred = self.stop_out(h).reshape_as(stop)
        return F.l1_loss(mel_pred, mel) + F.binary_cross_entropy_with_logits(stop_pred, stop)


if __name__ == "__main__":
    r = 3
    lengths = [412, 388, 350, 297]
    batch = [(torch.randint(1, 60, (n // 5,)), torch.randn(n, N_MELS)) for n in lengths]
    _, mel, stop = collate_tts(batch, r)
    decoder = TeacherForcedDecoder(r)
    loss = decoder(mel, stop)
    loss.backward()
    print(loss.item())
