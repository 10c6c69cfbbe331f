import torch
import torch.nn.functional as F

from vae import ConvVAE


def vae_loss(recon, x, mu, logvar):
    rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (rec + kld) / x.size(0)


def main():
    torch.manual_seed(0)
    model = ConvVAE(latent_dim=16)
    x = torch.rand(8, 1, 28, 28)
    recon, mu, logvar = model(x)
    loss = vae_loss(recon, x, mu, logvar)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
