import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, feat_dim=256):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(3, 64, 7, 2, 3), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(128, feat_dim, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(7),
        )

    def forward(self, images):
        return self.cnn(images).flatten(2).transpose(1, 2)


class AttnDecoder(nn.Module):
    def __init__(self, vocab_size, feat_dim=256, emb_dim=256, hidden=512, attn_dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.att_feat = nn.Linear(feat_dim, attn_dim)
        self.att_hid = nn.Linear(hidden, attn_dim)
        self.att_score = nn.Linear(attn_dim, 1)
        self.init_h = nn.Linear(feat_dim, hidden)
        self.init_c = nn.Linear(feat_dim, hidden)
        self.cell = nn.LSTMCell(emb_dim + feat_dim, hidden)
        self.fc = nn.Linear(hidden, vocab_size)

    def attend(self, feats, h):
        e = self.att_score(torch.tanh(self.att_feat(feats) + self.att_hid(h).unsqueeze(1))).squeeze(2)
        alpha = e.softmax(dim=1)
        return (alpha.unsqueeze(2) * feats).sum(dim=1), alpha

    def forward(self, feats, captions):
        mean = feats.mean(dim=1)
        h, c = self.init_h(mean), self.init_c(mean)
        logits = []
        for t in range(captions.size(1) - 1):
            ctx, _ = self.attend(feats, h)
            h, c = self.cell(torch.cat([self.embed(captions[:, t]), ctx], dim=1), (h, c))
            logits.append(self.fc(h))
        return torch.stack(logits, dim=1)

    @torch.no_grad()
    def greedy(self, feats, bos, eos, max_len=20):
        mean = feats.mean(dim=1)
        h, c = self.init_h(mean), self.init_c(mean)
        word = torch.full((feats.size(0),), bos, dtype=torch.long)
        words = []
        for _ in range(max_len):
            ctx, _ = self.attend(feats, h)
            h, c = self.cell(torch.cat([self.embed(word), ctx], dim=1), (h, c))
            word = self.fc(h).argmax(dim=1)
            words.append(word)
            if (word == eos).all():
                break
        return torch.stack(words, dim=1)


if __name__ == "__main__":
    vocab_size, bos, eos = 5000, 1, 2
    encoder, decoder = Encoder(), AttnDecoder(vocab_size)
    images = torch.randn(4, 3, 224, 224)
    captions = torch.randint(3, vocab_size, (4, 16))
    feats = encoder(images)
    logits = decoder(feats, captions)
    loss = F.cross_entropy(logits.reshape(-1, vocab_size), captions[:, 1:].reshape(-1))
    print("train loss", loss.item())
    print(decoder.greedy(feats, bos, eos).shape)
