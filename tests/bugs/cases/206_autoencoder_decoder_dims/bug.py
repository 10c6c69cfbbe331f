import torch
import torch.nn as nn
import torch.nn.functional as F


def build_mlp(dims, final_activation=None):
    layers = []
    for i in range(len(dims) - 1):
        layers.append(nn.Linear(dims[i], dims[i + 1]))
        if i < len(dims) - 2:
            layers.append(nn.ReLU())
    if final_activation is not None:
        layers.append(final_activation)
    return nn.Sequential(*layers)


class DenseAutoencoder(nn.Module):
    def __init__(self, dims=(784, 256, 64, 16)):
        super().__init__()
        self.encoder = build_mlp(list(dims))
        self.decoder = build_mlp(list(dims[::-1])[1:], nn.Sigmoid())

    def forward(self, x):
        z = self.encoder(x.flatten(1))
        recon = self.decoder(z)
        return recon.view_as(x), z


def train_step(model, optimizer, images):
    optimizer.zero_grad()
    recon, _ = model(images)
    loss = F.binary_cross_entropy(recon, images)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    model = DenseAutoencoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.rand(32, 1, 28, 28)
    print(train_step(model, optimizer, images))
