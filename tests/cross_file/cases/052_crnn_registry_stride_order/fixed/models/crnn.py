import torch.nn as nn


class CRNN(nn.Module):
    def __init__(self, backbone, num_classes, hidden=128):
        super().__init__()
        self.backbone = backbone
        self.rnn = nn.LSTM(backbone.out_channels, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, num_classes)

    def forward(self, images):
        feats = self.backbone(images)
        b, c, _, w = feats.shape
        seq = feats.view(b, c, w).permute(0, 2, 1)
        out, _ = self.rnn(seq)
        return self.fc(out).log_softmax(dim=-1)
