import torch
import torch.nn as nn

FEAT_DIM = 512
HIDDEN = 256
TASKS = {"age": 1, "gender": 2, "emotion": 7}


class MultiTaskHead(nn.Module):
    def __init__(self, feat_dim=FEAT_DIM, hidden=HIDDEN, tasks=TASKS):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(feat_dim, hidden), nn.ReLU(), nn.Dropout(0.1))
        self.heads = nn.ModuleDict({
            name: nn.Linear(hidden, n_out) for name, n_out in tasks.items()
        })

    def forward(self, features):
        h = self.trunk(features)
        return {name: head(h) for name, head in self.heads.items()}


def multitask_loss(outputs, targets):
    loss = nn.functional.mse_loss(outputs["age"].squeeze(-1), targets["age"])
    loss = loss + nn.functional.cross_entropy(outputs["gender"], targets["gender"])
    return loss + nn.functional.cross_entropy(outputs["emotion"], targets["emotion"])


if __name__ == "__main__":
    model = MultiTaskHead()
    feats = torch.randn(8, FEAT_DIM)
    targets = {
        "age": torch.rand(8) * 80,
        "gender": torch.randint(0, 2, (8,)),
        "emotion": torch.randint(0, 7, (8,)),
    }
    print(multitask_loss(model(feats), targets).item())
