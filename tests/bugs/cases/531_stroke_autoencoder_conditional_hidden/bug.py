import torch
import torch.nn as nn


class StrokeAutoencoder(nn.Module):
    def __init__(self, point_dim=3, enc_hidden=64, bidirectional=True):
        super().__init__()
        self.bidirectional = bidirectional
        self.encoder = nn.LSTM(point_dim, enc_hidden, batch_first=True, bidirectional=bidirectional)
        dec_hidden = enc_hidden * 2 if bidirectional else 1
        self.decoder = nn.LSTM(point_dim, dec_hidden, batch_first=True)
        self.to_point = nn.Linear(dec_hidden, point_dim)

    def merge_directions(self, state):
        if self.bidirectional:
            return torch.cat([state[0::2], state[1::2]], dim=-1)
        return state

    def forward(self, strokes):
        _, (h, c) = self.encoder(strokes)
        h0, c0 = self.merge_directions(h), self.merge_directions(c)
        start = torch.zeros_like(strokes[:, :1])
        teacher = torch.cat([start, strokes[:, :-1]], dim=1)
        out, _ = self.decoder(teacher, (h0, c0))
        return self.to_point(out)


def reconstruction_loss(model, strokes):
    recon = model(strokes)
    return nn.functional.mse_loss(recon, strokes)


if __name__ == "__main__":
    model = StrokeAutoencoder(bidirectional=False)
    strokes = torch.cumsum(torch.randn(8, 40, 3) * 0.1, dim=1)
    loss = reconstruction_loss(model, strokes)
    loss.backward()
    print(loss.item())
