import torch.nn as nn


class ConvPool1d(nn.Module):
    def __init__(self, in_ch, out_ch, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_ch, out_ch, kernel_size)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.conv(x)).amax(dim=-1)
