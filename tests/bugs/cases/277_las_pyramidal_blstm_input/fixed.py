import torch
import torch.nn as nn


class PyramidalBLSTM(nn.Module):
    def __init__(self, input_dim, hidden_dim, dropout=0.0):
        super().__init__()
        self.lstm = nn.LSTM(input_dim * 2, hidden_dim, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, t, d = x.shape
        t = t - t % 2
        x = x[:, :t].reshape(b, t // 2, d * 2)
        out, _ = self.lstm(x)
        return self.dropout(out)


class Listener(nn.Module):
    def __init__(self, n_mels=80, hidden_dim=256, dropout=0.1):
        super().__init__()
        self.pblstm1 = PyramidalBLSTM(n_mels, hidden_dim, dropout)
        self.pblstm2 = PyramidalBLSTM(hidden_dim * 2, hidden_dim, dropout)
        self.pblstm3 = PyramidalBLSTM(hidden_dim * 2, hidden_dim, dropout)

    def forward(self, feats):
        return self.pblstm3(self.pblstm2(self.pblstm1(feats)))
