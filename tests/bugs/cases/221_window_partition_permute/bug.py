import torch


def window_partition(x, ws):
    b, h, w, c = x.shape
    x = x.view(b, h // ws, ws, w // ws, ws, c)
    windows = x.permute(0, 1, 3, 2, 4).contiguous()
    return windows.view(-1, ws * ws, c)


def window_reverse(windows, ws, h, w):
    c = windows.shape[-1]
    b = windows.shape[0] // ((h // ws) * (w // ws))
    x = windows.view(b, h // ws, w // ws, ws, ws, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(b, h, w, c)


def shifted_window_tokens(x, ws, shift):
    if shift > 0:
        x = torch.roll(x, shifts=(-shift, -shift), dims=(1, 2))
    return window_partition(x, ws)


def window_mean_pool(x, ws):
    b, h, w, c = x.shape
    windows = window_partition(x, ws)
    pooled = windows.mean(dim=1, keepdim=True).expand(-1, ws * ws, -1)
    return window_reverse(pooled, ws, h, w)
