import torch
import torch.nn as nn


class TinyPatchNet(nn.Module):
    def __init__(self, kernel_size=3, num_classes=2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size, padding=1)
        self.conv2 = nn.Conv2d(8, 8, kernel_size, padding=1)
        self.act = nn.ReLU()
        self.head = nn.Linear(8, num_classes)

    def forward(self, x):
        x = self.act(self.conv1(x))
        x = self.act(self.conv2(x))
        x = x.amax(dim=(2, 3))
        return self.head(x)


def run(kernel_size=3):
    model = TinyPatchNet(kernel_size=kernel_size)
    patches = torch.randn(2, 1, 7, 7)
    return model(patches)


def main():
    for k in [3, 5, 7, 9, 15]:
        out = run(kernel_size=k)
        print("kernel", k, "->", tuple(out.shape))


if __name__ == "__main__":
    main()
