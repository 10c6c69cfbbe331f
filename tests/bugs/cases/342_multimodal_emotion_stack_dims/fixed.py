import torch
import torch.nn as nn
import torch.nn.functional as F


class ModalityEncoder(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.rnn = nn.GRU(in_dim, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, out_dim)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.proj(out.mean(dim=1))


class LateFusionEmotion(nn.Module):
    """Text (GloVe), audio (COVAREP) and vision (FACET) streams as in CMU-MOSEI."""

    def __init__(self, n_classes=6, d=128):
        super().__init__()
        self.text = ModalityEncoder(300, 128, d)
        self.audio = ModalityEncoder(74, 64, d)
        self.vision = ModalityEncoder(35, 64, d)
        self.modality_attn = nn.Linear(d, 1)
        self.classifier = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Dropout(0.2), nn.Linear(d, n_classes))

    def forward(self, text, audio, vision):
        streams = torch.stack([self.text(text), self.audio(audio), self.vision(vision)], dim=1)
        weights = torch.softmax(self.modality_attn(torch.tanh(streams)), dim=1)
        fused = (weights * streams).sum(dim=1)
        return self.classifier(fused)


def align_lengths(*seqs):
    t = min(s.size(1) for s in seqs)
    return [s[:, :t] for s in seqs]


if __name__ == "__main__":
    b = 12
    text = torch.randn(b, 50, 300)
    audio = torch.randn(b, 500, 74)
    vision = torch.randn(b, 150, 35)
    labels = (torch.rand(b, 6) > 0.7).float()
    model = LateFusionEmotion()
    logits = model(text, audio, vision)
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    loss.backward()
    print(loss.item())
