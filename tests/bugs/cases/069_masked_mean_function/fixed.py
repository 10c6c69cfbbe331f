import torch
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


def masked_mean(x: Float[Tensor, "b t d"], mask: Bool[Tensor, "b t"]) -> Float[Tensor, "b d"]:
    total = (x * mask.unsqueeze(-1)).sum(dim=1)
    count = mask.sum(dim=1).unsqueeze(1).clamp_min(1)
    return total / count


def sentence_embeddings(
    token_states: Float[Tensor, "b t d"],
    attention_mask: Int[Tensor, "b t"],
    normalize: bool = True,
) -> Float[Tensor, "b d"]:
    emb = masked_mean(token_states, attention_mask.bool())
    return F.normalize(emb, dim=-1) if normalize else emb
