import torch
import torch.nn.functional as F


def discriminator_loss(d_real, d_fake):
    """d_real, d_fake: raw PatchGAN logits, one per patch: [batch, 1, h, w]."""
    real_loss = F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
    fake_loss = F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake))
    return 0.5 * (real_loss + fake_loss)


def generator_loss(d_fake, fake, target, l1_weight=100.0):
    adv = F.binary_cross_entropy_with_logits(d_fake, torch.ones_like(d_fake))
    return adv + l1_weight * F.l1_loss(fake, target)
