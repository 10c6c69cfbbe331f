import torch
import torch.nn.functional as F


def init_lora(in_features, out_features, rank, alpha):
    A = torch.randn(rank, in_features) / rank
    B = torch.zeros(out_features, rank)
    return {"A": A, "B": B, "scale": alpha / rank}


def lora_linear(x, weight, bias, lora):
    base = F.linear(x, weight, bias)
    delta = F.linear(F.linear(x, lora["B"]), lora["A"])
    return base + lora["scale"] * delta


def merge_lora(weight, lora):
    return weight + lora["scale"] * lora["B"] @ lora["A"]


if __name__ == "__main__":
    torch.manual_seed(0)
    d_model, d_ff, rank = 768, 3072, 8
    w_up = torch.randn(d_ff, d_model) * 0.02
    b_up = torch.zeros(d_ff)
    lora = init_lora(d_model, d_ff, rank, alpha=16)
    hidden = torch.randn(4, 128, d_model)
    out = lora_linear(hidden, w_up, b_up, lora)
    merged = F.linear(hidden, merge_lora(w_up, lora), b_up)
    print(out.shape, torch.allclose(out, merged, atol=1e-4))
