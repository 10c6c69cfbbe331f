#!/usr/bin/env python3
"""Generate tests/data/element_cases.json: ground-truth element values of small tensor
computations, recorded from a real torch.

Model code computes widths and schedules with tensor arithmetic at construction time (RegNet's
quantised widths, drop-path schedules); shapehound evaluates that arithmetic on known values
(src/shapes/elements.rs). Each case is one Python expression over `torch` and `math` ending in
`.tolist()` (or `.item()`, or a Python number), and the value torch gives for it.

    ~/torchenv/bin/python scripts/gen_element_cases.py      # writes tests/data/element_cases.json

The RegNet cases use the width formula of the RegNet paper (Radosavovic et al., 2020,
"Designing Network Design Spaces", eq. 2-3) over a seeded grid of parameters in the ranges
published models use; deterministic (seeded `random.Random`, sorted JSON keys).
"""
import argparse
import json
import math
import random
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "element_cases.json"


def elementary():
    """Single operators and short chains, with the corner cases of rounding and signs."""
    yield "torch.arange(7).tolist()"
    yield "torch.arange(2, 11, 3).tolist()"
    yield "torch.arange(0.5, 3.0, 0.25).tolist()"
    yield "torch.arange(5, dtype=torch.float32).tolist()"
    yield "torch.arange(10, 0, -3).tolist()"
    for start, end, steps in [(0, 0.1, 12), (0, 0.3, 7), (0, 1, 5), (0.1, 0.5, 9), (0, 0.2, 24), (1, 1, 3), (0, 0.5, 1)]:
        yield f"torch.linspace({start}, {end}, {steps}).tolist()"
    yield "torch.tensor([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 2.4, 2.6]).round().tolist()"
    yield "torch.round(torch.tensor([0.5, 1.5, 2.5, -2.5]) * 3).tolist()"
    yield "torch.tensor([-1.7, -0.2, 0.2, 1.7]).floor().tolist()"
    yield "torch.tensor([-1.7, -0.2, 0.2, 1.7]).ceil().tolist()"
    yield "torch.tensor([-1.7, -0.2, 0.2, 1.7]).int().tolist()"
    yield "torch.tensor([-1.7, -0.2, 0.2, 1.7]).long().tolist()"
    yield "torch.tensor([-1.7, -0.2, 0.2, 1.7]).trunc().tolist()"
    yield "(torch.tensor([-7, -3, 3, 7]) // 2).tolist()"
    yield "(torch.tensor([-7, -3, 3, 7]) % 3).tolist()"
    yield "(torch.tensor([-7.5, 3.25]) // 2).tolist()"
    yield "torch.div(torch.tensor([-7, 7]), 2, rounding_mode='trunc').tolist()"
    yield "torch.div(torch.tensor([-7, 7]), 2, rounding_mode='floor').tolist()"
    yield "(torch.tensor([1, 2, 3]) / 2).tolist()"
    yield "(torch.arange(4) * 0.1).tolist()"
    yield "(torch.arange(4) * 3 + 1).tolist()"
    yield "(2 ** torch.arange(5)).tolist()"
    yield "torch.pow(1.5, torch.arange(6, dtype=torch.float32)).tolist()"
    yield "torch.pow(torch.tensor([1.0, 2.0, 3.0]), 2).tolist()"
    yield "torch.exp(torch.tensor([0.0, 1.0, -1.0])).tolist()"
    yield "torch.log(torch.tensor([1.0, 2.0, 10.0])).tolist()"
    yield "torch.log2(torch.tensor([1.0, 8.0, 10.0])).tolist()"
    yield "torch.sqrt(torch.tensor([4.0, 2.0, 0.0])).tolist()"
    yield "(-torch.tensor([1, -2, 3])).tolist()"
    yield "torch.tensor([[1, 2], [3, 4]]).tolist()"
    yield "(torch.tensor([[1, 2], [3, 4]]) * torch.tensor([10, 100])).tolist()"
    yield "(torch.tensor([[1], [2]]) + torch.tensor([10, 20, 30])).tolist()"
    yield "torch.tensor([3, 1, 4, 1, 5]).max().item()"
    yield "torch.tensor([3, 1, 4, 1, 5]).min().item()"
    yield "torch.tensor([3, 1, 4, 1, 5]).sum().item()"
    yield "torch.tensor([1.0, 2.0, 4.0]).mean().item()"
    yield "torch.tensor([1, 2, 3, 4]).prod().item()"
    yield "torch.diff(torch.tensor([1, 4, 9, 16])).tolist()"
    yield "torch.tensor([0.5, 1.0, 3.0]).diff().tolist()"
    yield "torch.cumsum(torch.tensor([1, 2, 3, 4]), 0).tolist()"
    yield "torch.tensor([0.1, 0.2, 0.3]).cumsum(dim=0).tolist()"
    yield "torch.cat([torch.tensor([8, 1, 1]), torch.tensor([6, 8])]).tolist()"
    yield "torch.cat([torch.tensor(z) for z in [[1, 2], [3], [4, 5, 6]]], dim=0).tolist()"
    yield "torch.cat([torch.arange(6).view(2, 3), torch.ones(2, 1, dtype=torch.long)], dim=1).tolist()"
    yield "torch.cat((torch.arange(4).view(2, 2), torch.arange(4, 8).view(2, 2)), -2).tolist()"
    yield "torch.stack([torch.arange(3), torch.arange(3, 6)]).tolist()"
    yield "torch.stack([torch.arange(3), torch.arange(3, 6)], dim=1).tolist()"
    yield "torch.stack([torch.tensor([1.5, 2.5]), torch.zeros(2)], -1).tolist()"
    yield "torch.unique(torch.tensor([3, 1, 3, 2, 1, 3])).tolist()"
    yield "[t.tolist() for t in torch.unique(torch.tensor([3, 1, 3, 2, 1, 3]), return_counts=True)]"
    yield "[t.tolist() for t in torch.unique(torch.tensor([5, 5, 7]), return_inverse=True)]"
    yield "[x.item() for x in torch.tensor([2, 4, 6])]"
    yield "[r.tolist() for r in torch.tensor([[1, 2], [3, 4]])]"
    yield "torch.tensor([1.25, 2.5]).to(torch.int64).tolist()"
    yield "torch.tensor([1, 2]).float().tolist()"
    yield "torch.arange(6).reshape(2, 3).tolist()"
    yield "torch.arange(6).view(3, 2).flatten().tolist()"
    yield "(torch.arange(3) > 0).tolist()"
    yield "torch.maximum(torch.tensor([1, 5]), torch.tensor([4, 2])).tolist()"
    yield "torch.tensor([0.1, 0.7]).double().tolist()"


def regnet_cases(rng):
    """RegNet's quantised per-block widths over a seeded grid of (depth, w0, wa, wm)."""
    for _ in range(60):
        depth = rng.randint(10, 30)
        w0 = rng.choice([16, 24, 32, 48, 56, 64, 80, 88, 96, 104, 128, 168, 184, 192, 200, 232])
        wa = round(rng.uniform(10.0, 250.0), 2)
        wm = round(rng.uniform(1.5, 3.0), 2)
        # torchvision's form: arange * wa + w0, divide by the quantum, round, re-multiply
        yield (
            f"(torch.round(torch.divide({w0} * torch.pow({wm}, torch.round(torch.log("
            f"(torch.arange({depth}) * {wa} + {w0}) / {w0}) / math.log({wm}))), 8)) * 8).int().tolist()"
        )
        # timm's form: float32 arange, exponents, then widths
        yield (
            f"(torch.round(({w0} * torch.pow({wm}, torch.round(torch.log((torch.arange({depth}, "
            f"dtype=torch.float32) * {wa} + {w0}) / {w0}) / math.log({wm})))) / 8) * 8).int().tolist()"
        )
        yield (
            f"[t.tolist() for t in torch.unique(torch.tensor((torch.round(({w0} * torch.pow({wm}, "
            f"torch.round(torch.log((torch.arange({depth}, dtype=torch.float32) * {wa} + {w0}) / {w0}) "
            f"/ math.log({wm})))) / 8) * 8).int().tolist()), return_counts=True)]"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--out", type=Path, default=OUT)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rng = random.Random(20261124)
    cases = []
    for code in list(elementary()) + list(regnet_cases(rng)):
        value = eval(code, {"torch": torch, "math": math})
        cases.append({"code": code, "value": value})
    meta = {"torch": torch.__version__, "cases": len(cases)}
    lines = ",\n".join(json.dumps(c, sort_keys=True) for c in cases)
    args.out.write_text(f'{{"meta": {json.dumps(meta, sort_keys=True)},\n"cases": [\n{lines}\n]}}\n')
    print(f"{len(cases)} cases -> {args.out}")


if __name__ == "__main__":
    main()
