import torch.nn as nn

KERNEL, STRIDE, PADDING = 5, 2, 2


class ConvFrontend(nn.Module):
    def __init__(self, n_mels, channels):
        super().__init__()
        self.convs = nn.Sequential(
            nn.Conv1d(n_mels, channels, KERNEL, STRIDE, PADDING),
            nn.GELU(),
            nn.Conv1d(channels, channels, KERNEL, STRIDE, PADDING),
            nn.GELU(),
        )

    def forward(self, feats):
        return self.convs(feats).transpose(1, 2)


def conv_out_length(length):
    return (length + 2 * PADDING - KERNEL) // STRIDE + 1


def output_lengths(lengths):
    return conv_out_length(lengths)
