import torch

from config import CONFIG


def make_windows(n_windows):
    series = torch.randn(n_windows + CONFIG["seq_len"], CONFIG["num_features"])
    windows = [series[i:i + CONFIG["seq_len"]] for i in range(n_windows)]
    targets = series[CONFIG["seq_len"]:CONFIG["seq_len"] + n_windows, 0]
    return torch.stack(windows), targets.unsqueeze(1)
