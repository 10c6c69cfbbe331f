import torch
import torch.nn.functional as F

from gan import Discriminator, Generator


def main():
    torch.manual_seed(0)
    gen, disc = Generator(latent_dim=64), Discriminator()
    z = torch.randn(16, 64)
    real = torch.rand(16, 1, 28, 28) * 2 - 1
    fake = gen(z)
    d_real, d_fake = disc(real), disc(fake.detach())
    loss_d = F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real)) + \
        F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake))
    print("d loss", loss_d.item())


if __name__ == "__main__":
    main()
