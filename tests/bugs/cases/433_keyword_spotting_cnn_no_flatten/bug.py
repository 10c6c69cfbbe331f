import torch
import torch.nn as nn

N_MFCC = 40
N_FRAMES = 100
WORDS = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "_silence_", "_unknown_"]


def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=3, padding=1),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
    )


class KeywordSpotter(nn.Module):
    def __init__(self, n_words=len(WORDS)):
        super().__init__()
        self.features = nn.Sequential(conv_block(1, 32), conv_block(32, 64))
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(64 * (N_MFCC // 4) * (N_FRAMES // 4), n_words)

    def forward(self, mfcc):
        x = self.features(mfcc.unsqueeze(1))
        x = self.dropout(x)
        return self.fc(x)


if __name__ == "__main__":
    model = KeywordSpotter()
    clips = torch.randn(16, N_MFCC, N_FRAMES)
    targets = torch.randint(0, len(WORDS), (16,))
    loss = nn.functional.cross_entropy(model(clips), targets)
    loss.backward()
    print(loss.item())
