import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(in_ch, out_ch):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, 3, padding=1, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
        nn.MaxPool2d((2, 1)),
    )


class SoundEventCRNN(nn.Module):
    def __init__(self, n_classes=10, channels=(32, 64, 128), rnn_hidden=128, dropout=0.2):
        super().__init__()
        blocks, in_ch = [], 1
        for ch in channels:
            blocks.append(conv_block(in_ch, ch))
            in_ch = ch
        self.cnn = nn.Sequential(*blocks)
        self.dropout = nn.Dropout(dropout)
        self.gru = nn.GRU(in_ch, rnn_hidden, batch_first=True, bidirectional=True)
        self.frame_head = nn.Linear(2 * rnn_hidden, n_classes)

    def forward(self, spec):
        x = self.cnn(spec.unsqueeze(1))
        x = x.mean(dim=2)
        x = self.dropout(x.permute(0, 2, 1))
        x, _ = self.gru(x)
        frame_probs = torch.sigmoid(self.frame_head(x))
        clip_probs = frame_probs.max(dim=1).values
        return frame_probs, clip_probs


def weak_label_loss(model, spec, clip_labels):
    _, clip_probs = model(spec)
    return F.binary_cross_entropy(clip_probs, clip_labels)
