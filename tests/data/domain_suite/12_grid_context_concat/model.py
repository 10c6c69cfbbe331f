import torch
import torch.nn as nn


class ContextTagger(nn.Module):
    def __init__(self, vocab_size=100, emb_dim=32, ctx_channels=16, ctx_kernel=3, num_tags=5):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.context = nn.Conv1d(emb_dim, ctx_channels, ctx_kernel, padding=ctx_kernel // 2)
        self.classifier = nn.Linear(emb_dim + ctx_channels, num_tags)

    def forward(self, tokens):
        emb = self.embedding(tokens)
        ctx = torch.relu(self.context(emb.transpose(1, 2))).transpose(1, 2)
        feats = torch.cat([emb, ctx], dim=-1)
        return self.classifier(feats)


SEARCH_SPACE = [
    {"ctx_kernel": 3, "ctx_channels": 16},
    {"ctx_kernel": 4, "ctx_channels": 16},
    {"ctx_kernel": 5, "ctx_channels": 32},
    {"ctx_kernel": 2, "ctx_channels": 32},
    {"ctx_kernel": 3, "ctx_channels": 32},
]


def run(ctx_kernel=3, ctx_channels=16):
    model = ContextTagger(ctx_channels=ctx_channels, ctx_kernel=ctx_kernel)
    tokens = torch.randint(0, 100, (2, 12))
    return model(tokens)


def main():
    for setting in SEARCH_SPACE:
        scores = run(ctx_kernel=setting["ctx_kernel"], ctx_channels=setting["ctx_channels"])
        print(setting, tuple(scores.shape))


if __name__ == "__main__":
    main()
