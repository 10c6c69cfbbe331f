CONFIG = {
    "num_features": 12,
    "seq_len": 30,
    "batch_size": 16,
    "model": {
        "input_size": 10,
        "hidden_size": 64,
        "num_layers": 2,
        "dropout": 0.2,
    },
    "lr": 1e-3,
}
