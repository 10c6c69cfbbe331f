import math
import torch
from jaxtyping import Float
from torch import Tensor


def split_heads(x: Float[Tensor, "b t d"], n_heads: int) -> Float[Tensor, "b h t dh"]:
    b, t, d = x.shape
    return x.view(b, t, n_heads, d // n_heads).transpose(1, 2)


def merge_heads(x: Float[Tensor, "b h t dh"]) -> Float[Tensor, "b t d"]:
    b, h, t, dh = x.shape
    return x.transpose(1, 2).reshape(b, t, h * dh)


def multi_head_attention(q: Float[Tensor, "b tq d"], k: Float[Tensor, "b tk d"], v: Float[Tensor, "b tk d"],
                         n_heads: int, causal: bool = False) -> Float[Tensor, "b tq d"]:
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.size(-1))
    if causal:
        t_q, t_k = scores.shape[-2:]
        mask = torch.ones(t_q, t_k, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    weights = scores.softmax(dim=-1)
    out = torch.einsum("bhqk,bhkd->bhqd", weights, v)
    return merge_heads(out)
