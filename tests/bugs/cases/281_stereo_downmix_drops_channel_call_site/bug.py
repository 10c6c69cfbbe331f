import torch
import torch.nn as nn


class ConvFrontend(nn.Module):
    def __init__(self, out_dim=256):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 64, kernel_size=400, stride=160, padding=200),
            nn.GELU(),
            nn.Conv1d(64, out_dim, kernel_size=3, padding=1),
            nn.GELU(),
        )

    def forward(self, wav):
        return self.conv(wav).permute(0, 2, 1)


class AudioTagger(nn.Module):
    def __init__(self, n_tags=50, dim=256, n_layers=2):
        super().__init__()
        self.frontend = ConvFrontend(dim)
        layer = nn.TransformerEncoderLayer(dim, 4, dim * 2, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.head = nn.Linear(dim, n_tags)

    def forward(self, wav):
        x = self.encoder(self.frontend(wav))
        return self.head(x.mean(dim=1))


if __name__ == "__main__":
    sample_rate = 16000
    model = AudioTagger().eval()
    stereo = torch.randn(2, 3 * sample_rate)
    wav = stereo.mean(dim=0)
    with torch.no_grad():
        probs = torch.sigmoid(model(wav.unsqueeze(0)))
    print(probs.topk(5))
