import torch.nn as nn

from frontend import ConvFrontend


class CTCModel(nn.Module):
    def __init__(self, n_mels=80, channels=144, hidden=128, vocab_size=30):
        super().__init__()
        self.frontend = ConvFrontend(n_mels, channels)
        self.rnn = nn.GRU(channels, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.classifier = nn.Linear(2 * hidden, vocab_size)

    def forward(self, feats):
        x = self.frontend(feats)
        x, _ = self.rnn(x)
        return self.classifier(x).log_softmax(dim=-1)
