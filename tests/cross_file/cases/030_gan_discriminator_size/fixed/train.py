import torch
import torch.nn.functional as F

import models.discriminator as D
import models.generator as G

IMG_SIZE = 32
LATENT = 100


def main():
    torch.manual_seed(0)
    gen = G.Generator(latent_dim=LATENT, n_up=3)
    disc = D.Discriminator(img_size=IMG_SIZE)
    z = torch.randn(8, LATENT)
    fake = gen(z)
    logits = disc(fake)
    g_loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
    g_loss.backward()
    print("g_loss", g_loss.item())


if __name__ == "__main__":
    main()
