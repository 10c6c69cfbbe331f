import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class TCN(nn.Module):
    def __init__(self, in_channels=6, channels=16, num_layers=3, kernel_size=3, dilation=1, num_classes=4):
        super().__init__()
        self.convs = nn.ModuleList()
        ch = in_channels
        for _ in range(num_layers):
            self.convs.append(nn.Conv1d(ch, channels, kernel_size, dilation=dilation))
            ch = channels
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x):
        for conv in self.convs:
            x = F.relu(conv(x))
        return self.fc(x.mean(dim=-1))


def run(kernel_size=3, dilation=1, channels=16, num_layers=3):
    model = TCN(channels=channels, num_layers=num_layers, kernel_size=kernel_size, dilation=dilation)
    x = torch.randn(2, 6, 16)
    return model(x)


def main():
    config_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep.json")
    with open(config_path) as f:
        config = json.load(f)
    model_cfg = config["model"]
    for kernel_size in config["sweep"]["kernel_size"]:
        for dilation in config["sweep"]["dilation"]:
            out = run(kernel_size=kernel_size, dilation=dilation, **model_cfg)
            print(f"kernel_size={kernel_size} dilation={dilation}: {tuple(out.shape)}")


if __name__ == "__main__":
    main()
