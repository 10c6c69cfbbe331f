import torch
import torch.nn as nn


class CausalConvBlock(nn.Module):
    def __init__(self, in_ch, out_ch, kernel_size, dilation):
        super().__init__()
        self.pad = (kernel_size - 1) * dilation
        self.conv1 = nn.Conv1d(in_ch, out_ch, kernel_size, dilation=dilation, padding=self.pad)
        self.conv2 = nn.Conv1d(out_ch, out_ch, kernel_size, dilation=dilation, padding=self.pad)
        self.skip = nn.Conv1d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()

    def forward(self, x):
        out = torch.relu(self.conv1(x)[..., :-self.pad])
        out = torch.relu(self.conv2(out)[..., :-self.pad])
        return torch.relu(out + self.skip(x))


class TCNForecaster(nn.Module):
    def __init__(self, n_inputs, channels=(32, 32, 32), kernel_size=3, n_outputs=1):
        super().__init__()
        blocks = []
        in_ch = n_inputs
        for i, ch in enumerate(channels):
            blocks.append(CausalConvBlock(in_ch, ch, kernel_size, dilation=2 ** i))
            in_ch = ch
        self.network = nn.Sequential(*blocks)
        self.head = nn.Linear(in_ch, n_outputs)

    def forward(self, x):
        y = self.network(x.transpose(1, 2))
        return self.head(y[:, :, -1])


if __name__ == "__main__":
    model = TCNForecaster(n_inputs=8).eval()
    series = torch.randn(200, 8)
    window = series[-64:]
    with torch.no_grad():
        next_value = model(window)
    print(next_value)
