import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, in_ch, out_ch, kernel_size, dilation=1):
        super().__init__(in_ch, out_ch, kernel_size, dilation=dilation)
        self.left_pad = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left_pad, 0)))


class ResidualLayer(nn.Module):
    def __init__(self, res_ch, skip_ch, dilation, kernel_size=2):
        super().__init__()
        self.dilated = CausalConv1d(res_ch, 2 * res_ch, kernel_size, dilation)
        self.res_out = nn.Conv1d(res_ch, res_ch, 1)
        self.skip_out = nn.Conv1d(2 * res_ch, skip_ch, 1)

    def forward(self, x):
        h = self.dilated(x)
        filt, gate = h.chunk(2, dim=1)
        z = torch.tanh(filt) * torch.sigmoid(gate)
        return x + self.res_out(z), self.skip_out(z)


class WaveNet(nn.Module):
    def __init__(self, n_classes=256, res_ch=32, skip_ch=64, n_layers=10, n_stacks=2):
        super().__init__()
        self.embed = nn.Conv1d(n_classes, res_ch, 1)
        self.layers = nn.ModuleList(
            ResidualLayer(res_ch, skip_ch, 2 ** i) for _ in range(n_stacks) for i in range(n_layers)
        )
        self.head = nn.Sequential(
            nn.ReLU(), nn.Conv1d(skip_ch, skip_ch, 1), nn.ReLU(), nn.Conv1d(skip_ch, n_classes, 1)
        )
        self.n_classes = n_classes

    def forward(self, tokens):
        x = F.one_hot(tokens, self.n_classes).float().transpose(1, 2)
        x = self.embed(x)
        skips = 0
        for layer in self.layers:
            x, s = layer(x)
            skips = skips + s
        return self.head(skips)


def mu_law_encode(audio, n_classes=256):
    mu = n_classes - 1
    y = torch.sign(audio) * torch.log1p(mu * audio.abs()) / torch.log1p(torch.tensor(float(mu)))
    return ((y + 1) / 2 * mu + 0.5).long().clamp(0, mu)


def training_step(model, audio):
    tokens = mu_law_encode(audio, model.n_classes)
    logits = model(tokens[:, :-1])
    return F.cross_entropy(logits, tokens[:, 1:])
