CONFIG = {
    "input_dim": 32,
    "num_latents": 64,
    "latent_dim": 256,
    "cross_heads": 1,
    "latent_heads": 8,
    "depth": 2,
    "ff_mult": 4,
    "num_classes": 10,
    "batch_size": 2,
    "num_points": 500,
}
