CONFIG = {
    "image_size": 32,
    "in_channels": 3,
    "channels": 64,
    "time_dim": 128,
    "time_channels": 64,
    "timesteps": 1000,
}
