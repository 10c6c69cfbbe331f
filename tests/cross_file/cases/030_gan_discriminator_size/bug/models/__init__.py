"""DCGAN-style generator and discriminator."""
