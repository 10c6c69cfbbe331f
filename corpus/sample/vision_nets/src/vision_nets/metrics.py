"""Evaluation metrics for the vision models."""

import os

import torch


def cosine_similarity_matrix(a, b):
    a = a / torch.linalg.norm(a, dim=-1, keepdim=True)
    b = b / torch.linalg.norm(b, dim=-1, keepdim=True)
    return a @ b.transpose(0, 1)


def top_k_accuracy(logits, targets, k=5):
    topk = logits.topk(k, dim=-1).indices
    hits = (topk == targets.unsqueeze(1)).any(dim=-1)
    return hits.float().mean().item()


def spectrum_peak(x):
    spec = torch.fft.rfft(x)
    return spec.abs().argmax(dim=-1)


def write_report(results, out_dir):
    lines = []
    for name in sorted(results):
        lines.append("%s\t%.4f" % (name, results[name]))
    path = os.path.join(out_dir, "metrics.tsv")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return len(lines)
