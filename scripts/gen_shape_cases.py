#!/usr/bin/env python3
"""Generate tests/data/shape_cases/: ground-truth shape outcomes of PyTorch operator calls.

Every case is one operator call on small CPU tensors, executed under a real torch; the outcome (output
shapes/dtypes, or the exception class and message) is recorded. The Rust shape analysis is tested against it.

    ~/torchenv/bin/python scripts/gen_shape_cases.py            # writes tests/data/shape_cases/
    ~/torchenv/bin/python scripts/gen_shape_cases.py -o DIR     # elsewhere

The output is JSON lines split into parts of at most PART_BYTES (part-00.jsonl, part-01.jsonl,
...) so that no committed file is large; read in order, the parts are one JSON-lines file.

Deterministic: case enumeration uses only seeded `random.Random`, every case runs after
`torch.manual_seed(0)`, torch runs single-threaded, and output lines are `json.dumps(sort_keys=True)` with
compact separators, and the worker runs with PYTHONHASHSEED=0. Cases run in a worker subprocess so that a segfault or hang in torch only loses that
case (such cases, and cases slower than 1 s, are skipped and reported on stderr).

Line format (see the header, the first line of tests/data/shape_cases/part-00.jsonl):
    {"args":[ARG...],"id":"torch.cat/0007","kwargs":{"dim":ARG},"op":"torch.cat","result":RESULT,"tags":[...]}
  nn modules add "init_args"/"init_kwargs" (constructor) and args/kwargs are the forward inputs.

ARG:    {"tensor":[2,3],"dtype":"float32"} (+ "fill": v when the values are not the default: float 0.0,
        int64 0, bool True), int/bool/str/null as JSON scalars, {"float":0.5}, {"tuple":[ARG...]},
        {"list":[ARG...]}, {"size":[2,3]}, {"slice":[start,stop,step]}, {"ellipsis":true},
        {"dtype":"int64"}, {"memory_format":"channels_last"}, {"module":"torch.nn.Linear","args":[...],"kwargs":{...}} (Sequential members).
RESULT: {"ok":OUT} or {"error":"RuntimeError","message":"...","stage":"init"|"forward"}
OUT:    {"shape":[..],"dtype":"float32"}, {"tuple":[OUT...]} (tuple, list, namedtuple), {"int":5},
        {"bool":true}, {"size":[..]}, {"float":x}, {"dtype":"float32"}, null (a None output).
"""
import argparse
import builtins
import collections
import glob
import json
import math
import operator
import os
import platform
import queue
import random
import subprocess
import sys
import threading
import time
import warnings

import torch

SEED = 0x5EA9E
MARK = "@@CASE "
SLOW_SECONDS = 1.0
HANG_SECONDS = 60.0

F = "torch.nn.functional."

# --------------------------------------------------------------------------------------------- specs


class T:
    """A tensor argument: shape, dtype and (optional, non-default) constant fill value."""

    __slots__ = ("shape", "dtype", "fill")

    def __init__(self, shape, dtype="float32", fill=None):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.fill = fill


def t(*shape, fill=None):
    return T(shape, "float32", fill)


def ti(*shape, fill=None):
    return T(shape, "int64", fill)


def tb(*shape, fill=None):
    return T(shape, "bool", fill)


class M:
    """An nn.Module argument (members of nn.Sequential)."""

    __slots__ = ("name", "args", "kwargs")

    def __init__(self, name, *args, **kwargs):
        self.name = name
        self.args = list(args)
        self.kwargs = kwargs


DTYPES = {"float32": torch.float32, "int64": torch.int64, "bool": torch.bool}
DEFAULT_FILL = {"float32": 0.0, "int64": 0, "bool": True}


def dtname(dt):
    return str(dt).replace("torch.", "")


def resolve_path(path):
    parts = path.split(".")
    assert parts[0] == "torch", path
    obj = torch
    for p in parts[1:]:
        obj = getattr(obj, p)
    return obj


def materialize(a):
    if isinstance(a, T):
        fill = DEFAULT_FILL[a.dtype] if a.fill is None else a.fill
        return torch.full(a.shape, fill, dtype=DTYPES[a.dtype])
    if isinstance(a, M):
        cls = resolve_path(a.name)
        return cls(*[materialize(x) for x in a.args], **{k: materialize(v) for k, v in a.kwargs.items()})
    if isinstance(a, torch.Size):
        return a
    if isinstance(a, tuple):
        return tuple(materialize(x) for x in a)
    if isinstance(a, list):
        return [materialize(x) for x in a]
    if isinstance(a, dict):
        return {k: materialize(v) for k, v in a.items()}
    return a


def encode_arg(a):
    if isinstance(a, T):
        d = {"tensor": list(a.shape), "dtype": a.dtype}
        if a.fill is not None:
            d["fill"] = {"float": float(a.fill)} if isinstance(a.fill, float) else a.fill
        return d
    if isinstance(a, M):
        return {"module": a.name, "args": [encode_arg(x) for x in a.args],
                "kwargs": {k: encode_arg(v) for k, v in a.kwargs.items()}}
    if isinstance(a, torch.Size):
        return {"size": list(a)}
    if isinstance(a, torch.dtype):
        return {"dtype": dtname(a)}
    if isinstance(a, torch.memory_format):
        return {"memory_format": str(a).replace("torch.", "")}
    if a is None or isinstance(a, (bool, int, str)):
        return a
    if isinstance(a, float):
        return {"float": a}
    if isinstance(a, tuple):
        return {"tuple": [encode_arg(x) for x in a]}
    if isinstance(a, list):
        return {"list": [encode_arg(x) for x in a]}
    if isinstance(a, slice):
        return {"slice": [a.start, a.stop, a.step]}
    if a is Ellipsis:
        return {"ellipsis": True}
    raise TypeError("cannot encode %r" % (a,))


def encode_out(o):
    if isinstance(o, torch.Tensor):
        return {"shape": list(o.shape), "dtype": dtname(o.dtype)}
    if isinstance(o, torch.Size):
        return {"size": list(o)}
    if isinstance(o, bool):
        return {"bool": o}
    if isinstance(o, int):
        return {"int": o}
    if isinstance(o, float):
        return {"float": o if math.isfinite(o) else repr(o)}
    if isinstance(o, (tuple, list)):
        return {"tuple": [encode_out(x) for x in o]}
    if o is None:
        return None
    if isinstance(o, torch.dtype):
        return {"dtype": dtname(o)}
    return {"other": type(o).__name__}


class Case:
    __slots__ = ("op", "args", "kwargs", "tags", "init_args", "init_kwargs", "id")

    def __init__(self, op, args, kwargs, tags, init_args, init_kwargs):
        self.op = op
        self.args = list(args)
        self.kwargs = dict(kwargs or {})
        self.tags = list(tags)
        self.init_args = init_args
        self.init_kwargs = init_kwargs
        self.id = None


def is_module_op(op):
    if not op.startswith("torch.nn."):
        return False
    last = op.rsplit(".", 1)[1]
    return op.count(".") == 2 and last[:1].isupper()


TENSOR_PROPS = {"shape", "T", "mT", "H", "mH", "ndim", "dtype", "is_cuda", "device"}


def resolve_op(op):
    if op.startswith("operator."):
        return getattr(operator, op.split(".", 1)[1])
    if op.startswith("builtins."):
        return getattr(builtins, op.split(".", 1)[1])
    if op.startswith("torch.Tensor."):
        name = op[len("torch.Tensor."):]
        if name in TENSOR_PROPS:
            return lambda recv: getattr(recv, name)
        return lambda recv, *a, **k: getattr(recv, name)(*a, **k)
    return resolve_path(op)


def run_case(c):
    """Returns (result, warned)."""
    torch.manual_seed(0)
    with warnings.catch_warnings(record=True) as wlist:
        warnings.simplefilter("always")
        if is_module_op(c.op):
            try:
                mod = resolve_path(c.op)(*materialize(c.init_args or []),
                                         **materialize(c.init_kwargs or {}))
            except Exception as e:  # noqa: BLE001
                return err(e, "init"), bool(wlist)
            fn = mod
        else:
            fn = resolve_op(c.op)
        args = materialize(c.args)
        kwargs = materialize(c.kwargs)
        try:
            out = fn(*args, **kwargs)
            res = {"ok": encode_out(out)}
        except Exception as e:  # noqa: BLE001
            res = err(e, "forward")
    return res, bool(wlist)


def err(e, stage):
    msg = str(e)
    if isinstance(e, KeyError) and e.args:
        msg = str(e.args[0])
    return {"error": type(e).__name__, "message": msg[:200], "stage": stage}


# ---------------------------------------------------------------------------------------- case sets

CASES = []


def add(op, args=(), kwargs=None, tags=(), init_args=None, init_kwargs=None):
    CASES.append(Case(op, args, kwargs, tags, init_args, init_kwargs))


def mod(op, init_args=(), init_kwargs=None, args=(), kwargs=None, tags=()):
    CASES.append(Case(op, args, kwargs, tags, list(init_args), dict(init_kwargs or {})))


# ------------------------------------------------------------------------------------------ creation

def gen_creation():
    S = torch.Size
    size_forms = [
        ([2, 3], {}, ["varargs"]), ([4], {}, ["varargs"]), ([], {}, ["default-args"]),
        ([0], {}, ["varargs"]), ([2, 0, 3], {}, ["varargs"]), ([1, 2, 3, 4, 5], {}, ["varargs"]),
        ([-1], {}, ["negative-size"]), ([2, -3], {}, ["negative-size"]),
        ([(2, 3)], {}, ["tuple-size"]), ([[2, 3]], {}, ["list-size"]), ([S([2, 3])], {}, ["size-arg"]),
        ([()], {}, ["tuple-size"]), ([(0,)], {}, ["tuple-size"]), ([(5,)], {}, ["tuple-size"]),
        ([], {"size": (2, 3)}, []), ([(2, 3)], {"dtype": torch.int64}, []),
        ([2, 3], {"dtype": torch.bool}, []), ([2.5], {}, []), ([(2, 3), 4], {}, []),
        (["a"], {}, []), ([(2, -1)], {}, ["negative-size"]), ([[]], {}, ["list-size"]),
        ([(1, 1, 1, 1, 1, 1)], {}, []), ([None], {}, []), ([(2, 3.0)], {}, []),
        ([S([])], {}, ["size-arg"]), ([S([4, 0])], {}, ["size-arg"]), ([3, 1, 2], {"dtype": torch.float32}, []),
    ]
    for op in ["torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"]:
        for a, k, tg in size_forms:
            add(op, a, k, tg)
    # full
    for a, k in [([(2, 3), 1.5], {}), ([(2, 3), 7], {}), ([(2, 3), True], {}), ([], {"size": (2,), "fill_value": 0.0}),
                 ([2, 3], {}), ([(-1,), 0.0], {}), ([(), 1.0], {}), ([[0, 3], 1.0], {}), ([(2, 3)], {}),
                 ([S([4, 1]), 2.0], {}), ([(1, 2, 3, 4, 5), 0.5], {}), ([(2, 3), 1], {"dtype": torch.float32}),
                 ([(2,), 1.5], {"dtype": torch.int64}), ([[2, 3], -1.0], {}), ([(2, 3), "x"], {})]:
        add("torch.full", a, k)
    # randint
    for a, k in [([10, (2, 3)], {}), ([0, 10, (2, 3)], {}), ([5, (0,)], {}), ([10], {"size": (2, 3)}),
                 ([10, 3], {}), ([5, 2, (3,)], {}), ([10, (2, 3)], {"dtype": torch.float32}), ([10, ()], {}),
                 ([3, 3, (2,)], {}), ([-5, 5, (4, 1)], {}), ([10, [2, 2]], {}), ([10, (1, 2, 3, 4, 5)], {}),
                 ([10, (-1,)], {}), ([2, (2, 3)], {"dtype": torch.bool})]:
        add("torch.randint", a, k)
    # arange
    for a, k in [([5], {}), ([0, 5], {}), ([1, 10, 2], {}), ([0.0, 1.0, 0.1], {}), ([5.0], {}), ([10, 0, -1], {}),
                 ([10, 0, -3], {}), ([0, 10, -1], {}), ([0, 10, 0], {}), ([5, 5], {}), ([0, 5], {"dtype": torch.float32}),
                 ([-3, 3], {}), ([1, 2.5, 0.5], {}), ([], {"end": 5}), ([0, -5, 1], {}), ([2.5], {}), ([0], {}),
                 ([-1], {}), ([0, 1, 0.3], {}), ([1, 0, -0.25], {}), ([0, 10, 3], {}), ([0, 10], {"step": 2}),
                 ([3], {"dtype": torch.bool}), ([0, 4], {"dtype": torch.int64}), ([0.5, 3], {}), ([-2.0, 2.0, 0.5], {}),
                 (["a"], {}), ([1, 2, 3, 4], {})]:
        add("torch.arange", a, k)
    # linspace
    for a, k in [([0, 1, 5], {}), ([0, 1, 0], {}), ([0, 1, 1], {}), ([0, 1, -1], {}), ([0, 1], {"steps": 5}),
                 ([0, 1], {}), ([1, 0, 5], {}), ([0, 10, 5], {"dtype": torch.int64}), ([0.0, 1.0, 100], {}),
                 ([-1.0, 1.0, 3], {}), ([0, 1, 2.5], {}), ([0, 1, 4], {"dtype": torch.bool})]:
        add("torch.linspace", a, k)
    # eye
    for a, k in [([3], {}), ([3, 4], {}), ([0], {}), ([2, 0], {}), ([-1], {}), ([3], {"m": 5}), ([3, 4], {"dtype": torch.int64}),
                 ([], {"n": 2}), ([1], {}), ([4, 2], {}), ([3, -2], {}), ([2.5], {}), ([(2, 3)], {}), ([2], {"dtype": torch.bool})]:
        add("torch.eye", a, k)
    # tensor literals
    for a, k in [([1], {}), ([1.5], {}), ([[1, 2, 3]], {}), ([[1.0, 2.0]], {}), ([[[1, 2], [3, 4]]], {}),
                 ([[[1, 2], [3]]], {}), ([[]], {}), ([[[]]], {}), ([[[[1]]]], {}), ([[True, False]], {}),
                 ([[1, 2.5]], {}), ([[[1, 2], [3, 4]]], {"dtype": torch.float32}), ([[[1, 2], 3]], {}),
                 ([[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]], {}), ([[[1, 2], [3, 4], [5, 6]]], {}), ([True], {}),
                 ([[[[1], [2]], [[3]]]], {}), ([[[], []]], {}), ([[1, True]], {}), ([(1, 2, 3)], {}),
                 ([[(1, 2), (3, 4)]], {}), ([[[1.0], [2.0], [3.0]]], {}), ([[[[[[1]]]]]], {}),
                 ([[1, 2]], {"dtype": torch.bool}), ([None], {}), ([[t(2), t(2)]], {}), ([t(2, 3)], {}),
                 ([[t(), t()]], {}), ([[t(1), t(1)]], {}), ([[[1, 2], [3, 4, 5], [6]]], {}), ([[1, [2]]], {})]:
        add("torch.tensor", a, k, ["literal"])
    # *_like
    like_src = [t(2, 3), t(), t(0, 4), t(1, 2, 3, 4, 5), ti(3), tb(2, 2), t(5)]
    for op in ["torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.rand_like", "torch.randn_like"]:
        for x in like_src:
            add(op, [x])
        add(op, [t(2, 3)], {"dtype": torch.int64}, ["dtype-kw"])
        add(op, [ti(2, 3)], {"dtype": torch.float32}, ["dtype-kw"])
        add(op, [(2, 3)])
    for x in like_src:
        add("torch.full_like", [x, 3.0])
    for a, k in [([t(2, 3), 7], {}), ([t(2, 3)], {}), ([ti(2, 3), 2.5], {}), ([t(2, 3)], {"fill_value": 1.0}),
                 ([t(4), 1.0], {"dtype": torch.int64}), ([(2, 3), 1.0], {})]:
        add("torch.full_like", a, k)
    # Tensor.new_*
    for op in ["torch.Tensor.new_zeros", "torch.Tensor.new_ones", "torch.Tensor.new_empty"]:
        for a, k in [([(2, 3)], {}), ([2, 3], {}), ([[]], {}), ([()], {}), ([(0, 3)], {}), ([-1], {}),
                     ([S([2, 3])], {}), ([(2, 3)], {"dtype": torch.int64}), ([[4, 5]], {}), ([], {}),
                     ([(1, 2, 3, 4, 5)], {}), ([], {"size": (3,)})]:
            add(op, [t(4, 4)] + a, k)
        add(op, [ti(2), (3,)])
        add(op, [tb(), (3, 1)])
    for a, k in [([(2,), 1.0], {}), ([2, 1.0], {}), ([(2, 3), 5], {}), ([(), 1.0], {}), ([(0, 2), 1.0], {}),
                 ([(2, 3)], {}), ([(-1, 2), 0.0], {}), ([[3, 3], True], {}), ([(2,), 1.0], {"dtype": torch.int64}),
                 ([], {"size": (2, 2), "fill_value": 3.0})]:
        add("torch.Tensor.new_full", [t(4)] + a, k)
    add("torch.Tensor.new_full", [ti(4), (2,), 1.5])


# ---------------------------------------------------------------------------------------------- views

def gen_views():
    rng = random.Random(SEED + 1)
    S = torch.Size
    srcs = [(2, 3, 4), (24,), (4, 6), (2, 12), (0, 3), (3, 0, 2), (), (1,), (1, 1), (2, 3, 4, 1, 1), (6, 4)]
    tgts = [(-1,), (24,), (4, 6), (2, 3, 4), (-1, 4), (2, -1, 3), (-1, -1), (5, 5), (0,), (0, -1), (-1, 0), (),
            (1,), (1, -1), (3, 8, 1, 1, 1), (2, 2, 2, 3), (-2, 12), (25,), (4, -1, 0)]
    for op in ["torch.Tensor.view", "torch.Tensor.reshape"]:
        for s in srcs:
            for tg in tgts:
                form = rng.choice(["varargs", "varargs", "tuple", "tuple", "list", "size"])
                if form == "size" and any(d < 0 for d in tg):
                    form = "tuple"
                tags = []
                if -1 in tg:
                    tags.append("infer-1")
                if form == "varargs":
                    a = list(tg)
                    if not tg:
                        a = [()]
                elif form == "tuple":
                    a = [tuple(tg)]
                elif form == "list":
                    a = [list(tg)]
                else:
                    a = [S(tg)]
                add(op, [T(s)] + a, {}, tags + [form])
        for s in [(2, 3), (4,), ()]:
            add(op, [T(s)], {}, ["default-args"])
            add(op, [T(s), "a"])
            add(op, [T(s), 2.0])
        add(op, [t(2, 3), (6,), 1])
        add(op, [t(2, 3)], {"shape": (3, 2)}, [])
        add(op, [t(2, 3), -1], {}, ["infer-1"])
        add(op, [t(2, 3), -3])
        add(op, [t(2, 3), 3, -2])
    add("torch.Tensor.view", [t(2, 4), torch.int32])
    add("torch.Tensor.view", [t(2, 4), torch.float64])
    add("torch.Tensor.view", [t(2, 4), torch.int8])
    add("torch.Tensor.view", [t(), torch.int64])
    for s in srcs[:8]:
        for tg in [(-1,), (2, -1), (-1, 3), (1, 2, 3, 2, -1), ()]:
            add("torch.reshape", [T(s), tg])
    add("torch.reshape", [t(2, 3)], {"shape": (-1,)})
    add("torch.reshape", [t(2, 3), 6])
    add("torch.reshape", [t(2, 3), [3, 2]])

    # flatten
    fshapes = [(), (3,), (2, 3), (2, 3, 4), (2, 0, 4), (2, 3, 4, 5), (1, 2, 3, 4, 5)]
    fargs = [([], {}), ([1], {}), ([0, -1], {}), ([1, -1], {}), ([0, 1], {}), ([1, 2], {}), ([-2, -1], {}),
             ([-3, -2], {}), ([2, 1], {}), ([0, 5], {}), ([6, 7], {}), ([-1, 0], {}), ([], {"start_dim": 1}),
             ([], {"end_dim": -2}), ([-1], {}), ([0, 0], {})]
    for s in fshapes:
        for a, k in fargs:
            add("torch.Tensor.flatten", [T(s)] + a, k, ["default-args"] if not a and not k else [])
    for s in fshapes:
        for a, k in [([], {}), ([1], {}), ([0, -2], {}), ([], {"start_dim": -1})]:
            add("torch.flatten", [T(s)] + a, k)
    # unflatten
    for s, d, sz in [((2, 12), 1, (3, 4)), ((2, 12), 1, (-1, 4)), ((2, 12), 1, (5, -1)), ((2, 12), -1, (2, 6)),
                     ((2, 12), 1, (2, 2, 3)), ((2, 12), 2, (3, 4)), ((2, 12), 1, ()), ((2, 12), 0, (1, 2)),
                     ((24,), 0, (2, 3, 4)), ((24,), 0, (-1, -1)), ((24,), 0, (5, 5)), ((2, 3, 4), -2, (3, 1)),
                     ((0, 6), 1, (2, 3)), ((0, 6), 0, (0, 5)), ((0, 6), 0, (-1, 2)), ((2, 12), 1, [3, 4]),
                     ((2, 12), -3, (1, 2)), ((4,), 0, (2, 2)), ((2, 12), 1, torch.Size([6, 2])), ((), 0, (1,))]:
        add("torch.Tensor.unflatten", [T(s), d, sz])
    add("torch.Tensor.unflatten", [t(2, 12)], {"dim": 1, "sizes": (3, 4)})
    add("torch.unflatten", [t(2, 12), 1, (3, 4)])
    add("torch.unflatten", [t(2, 12), 1, (3, 5)])

    # squeeze / unsqueeze
    for s in [(1,), (), (2, 1, 3), (1, 2, 1, 3, 1), (2, 3), (0, 1), (1, 1, 1)]:
        for a in [[], [0], [1], [-1], [2], [-4], [5], [(0, 2)], [(0, -1)], [()], [(1, 1)], [[0, 1]]]:
            add("torch.Tensor.squeeze", [T(s)] + a, {}, ["default-args"] if not a else [])
    add("torch.Tensor.squeeze", [t(2, 1, 3)], {"dim": 1})
    add("torch.squeeze", [t(2, 1, 3)])
    add("torch.squeeze", [t(2, 1, 3), 0])
    add("torch.squeeze", [t(1, 1, 3), (0, 1)])
    add("torch.squeeze", [t(2, 1, 1), -1])
    for s in [(), (3,), (2, 3), (2, 3, 4), (2, 3, 4, 5), (1, 2, 3, 4, 5)]:
        r = len(s)
        for d in range(-r - 2, r + 2):
            add("torch.Tensor.unsqueeze", [T(s), d])
    add("torch.Tensor.unsqueeze", [t(2, 3)])
    add("torch.Tensor.unsqueeze", [t(2, 3)], {"dim": 1})
    add("torch.Tensor.unsqueeze", [t(2, 3), (0, 1)])
    add("torch.Tensor.unsqueeze", [t(0, 3), 1])
    for s, d in [((2, 3), 0), ((2, 3), -1), ((2, 3), 3), ((), 0), ((4,), 1), ((4,), -3), ((0,), 0), ((2, 3), 1.0)]:
        add("torch.unsqueeze", [T(s), d])

    # permute
    for s, p, form in [((2, 3, 4), (2, 0, 1), "v"), ((2, 3, 4), (2, 0, 1), "t"), ((2, 3, 4), (0, 1), "t"),
                       ((2, 3, 4), (0, 0, 1), "t"), ((2, 3, 4), (-1, 0, 1), "v"), ((2, 3, 4), (0, 1, 3), "v"),
                       ((2, 3), (1, 0), "l"), ((), (), "t"), ((5,), (0,), "v"), ((5,), (-1,), "v"),
                       ((1, 2, 3, 4, 5), (4, 3, 2, 1, 0), "t"), ((1, 2, 3, 4, 5), (0, 2, 1, 4, 3), "v"),
                       ((2, 0, 3), (2, 1, 0), "v"), ((2, 3, 4), (0, 1, 2, 3), "t"), ((2, 3), (1, -2), "v"),
                       ((2, 3, 4), (-3, -2, -1), "t"), ((2, 3, 4), (1, 2, -3), "v"), ((2, 3), (2, 0), "v"),
                       ((2, 3, 4, 5), (0, 2, 3, 1), "v"), ((2, 3, 4, 5), (0, 3, 1, 2), "t"), ((2, 3), (0,), "v"),
                       ((2, 3), (1, 1), "v"), ((2, 3, 4), (1.0, 0, 2), "t")]:
        a = list(p) if form == "v" else [tuple(p)] if form == "t" else [list(p)]
        if form == "v" and not p:
            a = []
        add("torch.Tensor.permute", [T(s)] + a)
    add("torch.Tensor.permute", [t(2, 3)], {"dims": (1, 0)})
    add("torch.Tensor.permute", [t(2, 3)])
    for s, p in [((2, 3, 4), (2, 0, 1)), ((2, 3), (1, 0)), ((2, 3), (0,)), ((2, 3, 4), (0, 0, 1)), ((), ()),
                 ((2, 3, 4, 5, 6), (4, 0, 1, 2, 3))]:
        add("torch.permute", [T(s), p])
    # transpose
    for s in [(2, 3), (2, 3, 4), (5,), (), (0, 3), (1, 2, 3, 4, 5)]:
        for d0, d1 in [(0, 1), (1, 0), (-1, -2), (0, -1), (0, 2), (-3, 0), (1, 1), (2, 3), (0, 0), (-1, 0)]:
            add("torch.Tensor.transpose", [T(s), d0, d1])
    add("torch.Tensor.transpose", [t(2, 3)], {"dim0": 0, "dim1": 1})
    add("torch.Tensor.transpose", [t(2, 3), 0])
    for s, d0, d1 in [((2, 3), 0, 1), ((2, 3, 4), 0, 2), ((2, 3), 0, 2), ((4,), 0, -1), ((2, 3, 4, 5), 1, -1)]:
        add("torch.transpose", [T(s), d0, d1])
        add("torch.swapaxes", [T(s), d0, d1])
    # t / T / mT
    for s in [(), (3,), (2, 3), (2, 3, 4), (0, 5), (1, 1), (2, 3, 4, 5, 6), (0,), (5, 1)]:
        add("torch.Tensor.t", [T(s)])
        add("torch.t", [T(s)])
        add("torch.Tensor.T", [T(s)])
        add("torch.Tensor.mT", [T(s)])
        add("torch.Tensor.mH", [T(s)])
    add("torch.Tensor.T", [ti(4, 2)])
    add("torch.Tensor.mT", [ti(1, 4, 2)])
    add("torch.Tensor.mT", [t(3, 0, 2)])
    # movedim
    for s, a, b in [((2, 3, 4), 0, 2), ((2, 3, 4), 2, 0), ((2, 3, 4), -1, 0), ((2, 3, 4), (0, 1), (2, 0)),
                    ((2, 3, 4), (0, 1), (2,)), ((2, 3, 4), (0, 0), (1, 2)), ((2, 3, 4), 3, 0), ((2, 3, 4), 0, -4),
                    ((5,), 0, 0), ((), 0, 0), ((2, 3, 4, 5, 6), (0, 4), (4, 0)), ((2, 3), [0], [1]),
                    ((2, 3, 4), (0, 1, 2), (2, 1, 0)), ((2, 3, 4), (1,), (1,)), ((2, 3, 4), 1, (0, 2))]:
        add("torch.Tensor.movedim", [T(s), a, b])
    for s, a, b in [((2, 3, 4), 0, 2), ((2, 3, 4), (0, 1), (-1, -2)), ((2, 3), 0, 2), ((2, 3, 4), -1, 1)]:
        add("torch.movedim", [T(s), a, b])
        add("torch.moveaxis", [T(s), a, b])
    add("torch.Tensor.movedim", [t(2, 3, 4)], {"source": 0, "destination": -1})

    # expand
    for s, tgt in [((3, 1), (3, 4)), ((3, 1), (-1, 4)), ((3, 1), (2, 3, 4)), ((3, 1), (2, -1, -1)), ((3, 2), (3, 4)),
                   ((3, 1), (4,)), ((), (2, 3)), ((1,), (0,)), ((1, 1), (0, 5)), ((3,), (2, 3)), ((3,), (3, 2)),
                   ((3, 1), (-1, -1)), ((1, 3), (-1, 3)), ((2, 1, 3), (2, 5, 3)), ((2, 1, 3), (1, 2, 5, 3)),
                   ((3, 1), (-1, 3, 4)), ((0, 1), (0, 4)), ((0, 1), (2, 4)), ((1, 1, 1, 1, 1), (2, 3, 4, 5, 6)),
                   ((4,), (4,)), ((4,), ()), ((1,), (-2,)), ((2, 1), (2, 0))]:
        form = rng.choice(["v", "t", "l", "s"])
        if form == "s" and any(d < 0 for d in tgt):
            form = "t"
        a = (list(tgt) or [()]) if form == "v" else [tuple(tgt)] if form == "t" else [list(tgt)] if form == "l" \
            else [S(tgt)]
        add("torch.Tensor.expand", [T(s)] + a, {}, ["infer-1"] if -1 in tgt else [])
    add("torch.Tensor.expand", [t(3, 1)], {"size": (3, 4)})
    add("torch.Tensor.expand", [t(3, 1), (3, 4), 1])
    for s, o in [((3, 1), (3, 4)), ((1,), (2, 3)), ((3,), (2, 3)), ((3, 2), (3, 4)), ((), (2,)), ((2, 3), (2,)),
                 ((1, 1), (0, 4)), ((2, 1, 1), (1, 2, 3, 4))]:
        add("torch.Tensor.expand_as", [T(s), T(o)])
    # repeat
    for s, reps in [((2, 3), (2, 2)), ((2, 3), (2,)), ((2, 3), (1, 2, 3)), ((3,), (4,)), ((3,), (2, 2)), ((), (3,)),
                    ((), ()), ((2, 3), ()), ((2, 3), (0, 2)), ((0, 3), (2, 2)), ((2, 3), (-1, 2)), ((1, 2, 3, 4, 5), (1, 1, 1, 1, 2)),
                    ((2, 3, 4), (2, 1, 1, 1)), ((2, 3), [2, 2])]:
        a = list(reps) if len(reps) != 1 and rng.random() < 0.5 and reps else [tuple(reps)] if not isinstance(reps, list) else [reps]
        add("torch.Tensor.repeat", [T(s)] + a)
    add("torch.Tensor.repeat", [t(2, 3), 2, 2])
    add("torch.Tensor.repeat", [t(2, 3), 2])
    add("torch.Tensor.repeat", [t(2, 3)])
    # repeat_interleave
    for s, a, k in [((2, 3), [2], {}), ((2, 3), [2], {"dim": 0}), ((2, 3), [2], {"dim": 1}), ((2, 3), [2], {"dim": -1}),
                    ((2, 3), [2], {"dim": 2}), ((), [3], {}), ((0, 3), [2], {"dim": 1}), ((2, 3), [0], {"dim": 0}),
                    ((2, 3), [-1], {}), ((5,), [3], {}), ((2, 3), [ti(2, fill=2)], {"dim": 0}),
                    ((2, 3), [ti(3, fill=1)], {"dim": 0}), ((2, 3), [ti(1, fill=3)], {"dim": 1}),
                    ((2, 3), [ti(3, fill=2)], {"dim": 1}), ((2, 3), [ti(6, fill=1)], {}),
                    ((2, 3), [2], {"dim": None}), ((2, 3), [2], {"output_size": 4, "dim": 0})]:
        tags = ["data-dependent"] if isinstance(a[0], T) else []
        add("torch.Tensor.repeat_interleave", [T(s)] + a, k, tags)
    add("torch.repeat_interleave", [t(2, 3), 2])
    add("torch.repeat_interleave", [t(2, 3), 2], {"dim": 1})
    add("torch.repeat_interleave", [t(2, 3), ti(2, fill=1), 0], {}, ["data-dependent"])
    add("torch.repeat_interleave", [ti(3, fill=2)], {}, ["data-dependent"])
    # contiguous
    for s in [(2, 3), (), (0, 4), (1, 2, 3, 4, 5), (7,)]:
        add("torch.Tensor.contiguous", [T(s)])
    add("torch.Tensor.contiguous", [t(2, 3)], {"memory_format": torch.contiguous_format})
    add("torch.Tensor.contiguous", [t(2, 3, 4, 5)], {"memory_format": torch.channels_last})
    add("torch.Tensor.contiguous", [t(2, 3, 4)], {"memory_format": torch.channels_last})
    # narrow
    for s, d, st, ln in [((4, 5), 0, 1, 2), ((4, 5), 1, 0, 5), ((4, 5), 1, 3, 3), ((4, 5), -1, 1, 2), ((4, 5), 2, 0, 1),
                         ((4, 5), 0, -2, 2), ((4, 5), 0, 4, 0), ((4, 5), 0, 5, 0), ((4, 5), 0, 0, -1), ((), 0, 0, 1),
                         ((6,), 0, 2, 4), ((2, 3, 4), -2, 1, 1), ((0, 3), 0, 0, 0), ((4, 5), 0, -5, 1), ((4, 5), 0, ti(), 2)]:
        add("torch.Tensor.narrow", [T(s), d, st, ln])
    add("torch.narrow", [t(4, 5), 0, 1, 2])
    add("torch.narrow", [t(4, 5), 1, 4, 2])
    # chunk
    for s, c, d in [((6, 4), 3, 0), ((5, 4), 3, 0), ((5, 4), 2, 1), ((5, 4), 5, 1), ((5, 4), 10, 0), ((5, 4), 0, 0),
                    ((5, 4), -1, 0), ((5, 4), 2, -1), ((5, 4), 2, 2), ((0, 4), 2, 0), ((), 1, 0), ((7,), 3, 0),
                    ((13,), 6, 0), ((2, 3, 4, 5, 6), 4, 4), ((4, 4), 1, 0)]:
        if d == 0:
            add("torch.Tensor.chunk", [T(s), c], {"dim": d} if rng.random() < 0.5 else {})
        else:
            add("torch.Tensor.chunk", [T(s), c, d])
    add("torch.Tensor.chunk", [t(6, 4)], {"chunks": 2, "dim": 1})
    for s, c, d in [((6, 4), 3, 0), ((5, 4), 4, 0), ((6, 4), 4, 1), ((6,), 0, 0)]:
        add("torch.chunk", [T(s), c, d])
    # split
    for s, sz, d in [((6, 4), 2, 0), ((5, 4), 2, 0), ((5, 4), 3, 1), ((5, 4), [2, 3], 0), ((5, 4), [2, 2], 0),
                     ((5, 4), [1, 1, 2], 1), ((5, 4), [5], 0), ((5, 4), [0, 5], 0), ((5, 4), [6, -1], 0),
                     ((5, 4), 0, 0), ((5, 4), -1, 0), ((5, 4), 10, 0), ((5, 4), 2, -1), ((5, 4), 2, 2),
                     ((0, 4), 2, 0), ((0, 4), [0], 0), ((), 1, 0), ((7,), (3, 4), 0), ((2, 3, 4, 5, 6), 2, -1),
                     ((5, 4), [2, 3], -2), ((5, 4), [], 0)]:
        if d == 0 and rng.random() < 0.5:
            add("torch.Tensor.split", [T(s), sz])
        else:
            add("torch.Tensor.split", [T(s), sz], {"dim": d})
    add("torch.Tensor.split", [t(6, 4)], {"split_size": 2})
    add("torch.Tensor.split_with_sizes", [t(6, 4), [2, 4]])
    add("torch.Tensor.split_with_sizes", [t(6, 4), [2, 3]])
    for s, sz, d in [((6, 4), 2, 0), ((6, 4), [1, 5], 0), ((6, 4), [1, 2], 0), ((6, 4), 3, 1), ((6, 4), 4, 3)]:
        add("torch.split", [T(s), sz, d])
    # tensor_split
    for s, a, d in [((7,), 3, 0), ((6, 4), 2, 0), ((6, 4), 4, 1), ((6, 4), [1, 3], 0), ((6, 4), (1, 3), 1),
                    ((6, 4), [5, 1], 0), ((6, 4), [10], 0), ((6, 4), 0, 0), ((6, 4), 7, 0), ((6, 4), [], 0),
                    ((6, 4), 2, 2), ((6, 4), 2, -1), ((), 2, 0), ((0, 4), 3, 0), ((6, 4), ti(2, fill=1), 0),
                    ((6, 4), [-1], 0), ((6, 4), -2, 0)]:
        add("torch.Tensor.tensor_split", [T(s), a], {"dim": d})
    add("torch.tensor_split", [t(7), 3])
    add("torch.tensor_split", [t(7), [2, 5]])
    add("torch.tensor_split", [t(2, 7), 3, 1])
    # unbind
    for s, d in [((2, 3), 0), ((2, 3), 1), ((2, 3), -1), ((2, 3), 2), ((), 0), ((0, 3), 0), ((0, 3), 1),
                 ((2, 3, 4, 5, 6), 4), ((4,), 0), ((2, 3), -3)]:
        add("torch.Tensor.unbind", [T(s), d])
    add("torch.Tensor.unbind", [t(2, 3)], {}, ["default-args"])
    add("torch.unbind", [t(2, 3)])
    add("torch.unbind", [t(2, 3), 1])
    add("torch.unbind", [t(2, 3)], {"dim": -1})
    # view_as / reshape_as
    for s, o in [((2, 3), (3, 2)), ((2, 3), (6,)), ((2, 3), (5,)), ((), (1, 1)), ((0, 3), (3, 0)), ((6,), ()),
                 ((1,), ()), ((2, 3, 4), (4, 6))]:
        add("torch.Tensor.view_as", [T(s), T(o)])
        add("torch.Tensor.reshape_as", [T(s), T(o)])


# ------------------------------------------------------------------------------------------- indexing

def gen_getitem():
    E = Ellipsis
    sl = slice
    common = [0, -1, 1, 2, -3, 5, sl(None), sl(1, None), sl(None, None, 2), sl(None, None, -1), sl(-2, None),
              sl(5, 10), sl(0, 0), sl(None, -1), sl(1, 2), sl(-100, 100), sl(None, None, 0), None, E,
              (0, 0), (0, 0, 0), (0, 0, 0, 0), (E, 0), (E, None), (None, E, None), (sl(None), 0),
              (0, sl(None), -1), (E, sl(None, None, 2)), (E, E), (None, None), (None, 0, None), (0, None, 0),
              (sl(None), None, sl(None)), (), True, False, [0, 1], [[0, 1], [1, 0]], [0], [], (E, [0, 0, 0]),
              (1, E), (sl(None), sl(None), sl(None), sl(None)), (0, E, 0), (-1, -1), [True, False],
              ti(5), ti(2, 2), ti(), ti(0), (ti(2), ti(2)), (ti(2), ti(3)), (ti(2, 1), ti(3)),
              (sl(None), ti(2)), (ti(2), sl(None), ti(2)), (0, sl(None), ti(2)), (E, ti(2)), (ti(4), E, 0),
              (None, ti(3)), t(2), ti(3, fill=7), (ti(2, 1), sl(None), ti(1, 4)), [ti(2), ti(2)], (ti(), ti()),
              (0, ti(2)), (ti(2), 0), (ti(2), None, ti(2))]
    masks_for = {
        (2, 3, 4): [tb(2, 3, 4), tb(2), tb(2, 3), tb(3), tb(3, 4), (sl(None), tb(3)), (E, tb(4)), (0, tb(3, 4)),
                    (tb(2), tb(3)), tb(2, 3, 4, fill=False), (tb(2), 0), tb(), (tb(2, 3), None)],
        (5,): [tb(5), tb(4), tb(), tb(5, fill=False), (tb(5), None)],
        (): [tb(), tb(1), tb(fill=False), (None, tb())],
        (0, 3): [tb(0), tb(0, 3), tb(3), (sl(None), tb(3))],
        (4, 5): [tb(4, 5), tb(4), tb(5), (sl(None), tb(5)), (tb(4), tb(5)), (tb(4), sl(1, 3))],
        (2, 3, 4, 5, 6): [tb(2, 3), (E, tb(6)), tb(2, 3, 4, 5, 6), (0, tb(3, 4))],
        (1, 2, 1): [tb(1), tb(1, 2), tb(1, 2, 1), (sl(None), tb(2))],
    }
    for s, masks in masks_for.items():
        for idx in common + masks:
            tags = []
            parts = idx if isinstance(idx, tuple) else (idx,)
            for p in parts:
                if isinstance(p, T) and p.dtype == "bool":
                    tags.append("bool-mask")
                    if p.fill is False:
                        tags.append("data-dependent")
                elif isinstance(p, T):
                    tags.append("advanced")
                    if p.fill is not None:
                        tags.append("data-dependent")
                elif isinstance(p, list):
                    tags.append("advanced")
                elif isinstance(p, slice):
                    tags.append("slice")
                elif p is None:
                    tags.append("newaxis")
                elif p is Ellipsis:
                    tags.append("ellipsis")
                elif isinstance(p, int) and not isinstance(p, bool) and p < 0:
                    tags.append("negative-index")
            add("operator.getitem", [T(s), idx], {}, sorted(set(tags)))
    for idx in [0, (0, 1), sl(None, 1), ti(2), tb(3)]:
        add("operator.getitem", [ti(3, 4), idx])
        add("operator.getitem", [tb(3, 4), idx])
    for idx in [sl(1, None), 1, "a", 1.5, (0, "a")]:
        add("operator.getitem", [t(4, 4), idx])
    # setitem goes through the same indexing machinery; the result is None (or the error)
    for s, idx, v in [((4, 5), 0, t(5)), ((4, 5), 0, t(4)), ((4, 5), sl(None), t(1)), ((4, 5), (E, 0), t(4)),
                      ((4, 5), tb(4, 5), 1.0), ((4, 5), ti(2), t(2, 5)), ((4, 5), ti(2), t(3, 5)), ((4, 5), 9, 1.0),
                      ((4, 5), (sl(None), sl(0, 2)), t(4, 2)), ((4, 5), (sl(None), sl(0, 2)), t(4, 3)),
                      ((2, 3, 4), E, t(3, 4)), ((2, 3, 4), None, t(2, 3, 4))]:
        add("operator.setitem", [T(s), idx, v])


# ----------------------------------------------------------------------------------------------- joins

def gen_joins():
    pairs = [((2, 3), (2, 3)), ((2, 3), (4, 3)), ((2, 3), (2, 4)), ((2, 3), (3,)), ((2, 3), (0, 3)), ((0,), (2, 3)),
             ((2, 3), (0,)), ((0,), (0,)), ((3,), (4,)), ((), ()), ((2, 3, 4), (2, 3, 4)), ((2, 3, 4), (2, 5, 4)),
             ((2, 3, 4), (1, 3, 4)), ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5)), ((2, 0), (2, 3)), ((2, 3), (2, 3, 1))]
    dims = [None, 0, 1, -1, -2, 2, -3]
    for op in ["torch.cat", "torch.concat"]:
        for a, b in pairs:
            for d in dims:
                if op == "torch.concat" and d not in (None, 0, -1, 2):
                    continue
                seq = [T(a), T(b)]
                if d is None:
                    add(op, [seq], {}, ["default-args"])
                elif d % 2:
                    add(op, [seq], {"dim": d})
                else:
                    add(op, [tuple(seq), d])
    for a, k in [([[]], {}), ([()], {}), ([[t(2, 3)]], {}), ([[t(2, 3)], 1], {}), ([[t(2, 3), t(2, 3), t(2, 5)], 1], {}),
                 ([[t(2, 3), t(2, 3), t(2, 5)], 0], {}), ([[t(2, 3), ti(2, 3)]], {}), ([[t(2, 3), tb(1, 3)]], {}),
                 ([[t(0), t(0)]], {"dim": 1}), ([[t(0), t(2, 3), t(0)], 1], {}), ([t(2, 3)], {}),
                 ([[t(2, 3), t(2, 3)], 0.5], {}), ([[t(2, 3), t(2, 3)], "x"], {}), ([[t(1, 1)] * 5, 1], {}),
                 ([[t(2, 3), t(2, 3), t(2, 3)], -1], {}), ([[ti(2), ti(3), ti(0)]], {})]:
        add("torch.cat", a, k)
    add("torch.concatenate", [[t(2, 3), t(2, 3)]], {"axis": 1})
    add("torch.concatenate", [[t(2, 3), t(2, 4)], 0])
    # stack
    for a, b in pairs:
        for d in [None, 0, 1, -1, 2, 3, -4]:
            seq = [T(a), T(b)]
            if d is None:
                add("torch.stack", [seq], {}, ["default-args"])
            else:
                add("torch.stack", [seq, d] if d % 2 == 0 else [tuple(seq)], {} if d % 2 == 0 else {"dim": d})
    for a, k in [([[]], {}), ([[t(2, 3)]], {}), ([[t(2, 3)] * 4, 2], {}), ([[t(), t(), t()]], {}),
                 ([[t(2, 3), ti(2, 3)]], {})]:
        add("torch.stack", a, k)
    # hstack / vstack / dstack
    hv = [[t(2, 3), t(2, 4)], [t(2, 3), t(3, 3)], [t(3), t(4)], [t(3), t(3)], [t(), t()], [t(2, 3, 4), t(2, 1, 4)],
          [t(2, 3, 4), t(1, 3, 4)], [t(0), t(2)], [t(2, 3)], [], [t(2, 3), t(3)], [t(1, 3), t(3)],
          [t(2, 2, 2, 2, 2), t(2, 2, 2, 2, 2)], [t(2, 3), t(2, 3), t(2, 3)]]
    for seq in hv:
        add("torch.hstack", [seq])
        add("torch.vstack", [seq])
        add("torch.dstack", [seq])
    add("torch.hstack", [(t(2), t(3))])
    add("torch.vstack", [(t(2), t(2))])
    add("torch.row_stack", [[t(3), t(3)]])
    add("torch.column_stack", [[t(3), t(3)]])
    add("torch.column_stack", [[t(3), t(3, 2)]])
    add("torch.column_stack", [[t(3), t(4)]])


# ------------------------------------------------------------------------------------------------ math

BIN_PAIRS = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), (2, 1)), ((2, 3), (1, 3)), ((2, 3), ()), ((), (2, 3)),
             ((2, 3), (3, 2)), ((2, 3), (2,)), ((4, 1, 3), (2, 3)), ((1,), (5,)), ((0, 3), (3,)), ((0, 3), (1,)),
             ((0,), (2,)), ((2, 1, 4, 1, 3), (5, 1, 1)), ((5,), (4, 1)), ((2, 3, 4), (3, 1)), ((2, 3, 4), (2, 3)),
             ((), ()), ((1, 1), (1,)), ((3, 1, 2), (1, 4, 1)), ((0, 1), (1, 0)), ((2, 0), (2, 1)), ((3,), (4,)),
             ((1, 2, 3, 4, 5), (4, 5))]


def gen_math():
    rng = random.Random(SEED + 3)
    ops = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "eq", "ne", "lt", "le", "gt", "ge"]
    for name in ops:
        op = "operator." + name
        for a, b in BIN_PAIRS:
            tags = ["broadcast"] if a != b else []
            add(op, [T(a), T(b)], {}, tags)
        for a, b in [(t(2, 3), 2), (t(2, 3), 2.5), (2, t(2, 3)), (2.5, t(2, 3)), (t(2, 3), True), (t(), 3),
                     (ti(2, 3, fill=1), 2), (ti(2, 3, fill=1), 2.5), (ti(2, 3, fill=1), t(3)),
                     (ti(2, 3, fill=1), ti(2, 1, fill=1)), (tb(2, 3), tb(3)), (tb(2, 3), ti(3, fill=1)),
                     (t(2, 3), "a"), (t(2, 3), None), (t(0), 1)]:
            tags = ["scalar-operand"] if not (isinstance(a, T) and isinstance(b, T)) else ["broadcast"]
            add(op, [a, b], {}, tags)
    for name in ["and_", "or_", "xor", "lshift", "rshift"]:
        op = "operator." + name
        for a, b in [(tb(2, 3), tb(2, 3)), (tb(2, 3), tb(3)), (tb(2, 3), tb(2)), (ti(2, 3), ti(1, 3)), (ti(4), 1),
                     (tb(4), True), (t(2, 3), t(2, 3)), (tb(), tb(2, 2)), (ti(2, 1), tb(1, 5)), (tb(0, 3), tb(1))]:
            add(op, [a, b], {}, ["broadcast"] if isinstance(b, T) and a.shape != b.shape else [])
    for name in ["neg", "pos", "abs", "invert"]:
        for x in [t(2, 3), t(), t(0, 4), t(1, 2, 3, 4, 5), ti(3), tb(2, 2), t(7), ti(2, 1, 3), tb()]:
            add("operator." + name, [x])
    for name in ["iadd", "isub", "imul", "itruediv"]:
        for a, b in [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), ()), ((3,), (2, 3)), ((2, 1), (2, 3)), ((), (1,)),
                     ((2, 3), (4, 3)), ((0, 3), (1, 3))]:
            add("operator." + name, [T(a), T(b)], {}, ["broadcast", "inplace"] if a != b else ["inplace"])
        add("operator." + name, [ti(2, 2, fill=1), t(2, 2)], {}, ["inplace"])
        add("operator." + name, [t(2, 2), 2], {}, ["inplace", "scalar-operand"])
    # torch.* function forms of binary ops
    for fn in ["torch.add", "torch.sub", "torch.mul", "torch.div", "torch.maximum", "torch.minimum", "torch.pow",
               "torch.eq", "torch.atan2", "torch.remainder", "torch.fmod", "torch.hypot"]:
        for a, b in rng.sample(BIN_PAIRS, 10):
            add(fn, [T(a), T(b)], {}, ["broadcast"] if a != b else [])
        add(fn, [t(2, 3), 2.0], {}, ["scalar-operand"])
    add("torch.add", [t(2, 3), t(3)], {"alpha": 2})
    add("torch.sub", [t(2, 3), t(3)], {"alpha": 0.5})
    add("torch.add", [t(2, 3)], {"other": t(2, 1)})
    add("torch.div", [t(2, 3), t(3)], {"rounding_mode": "floor"})
    add("torch.div", [t(2, 3), t(3)], {"rounding_mode": "trunc"})
    add("torch.div", [t(2, 3), t(3)], {"rounding_mode": "round"})
    add("torch.div", [ti(2, 3, fill=4), ti(3, fill=2)])
    for m in ["add", "sub", "mul", "div", "pow", "add_", "mul_", "sub_", "div_"]:
        for a, b in [((2, 3), (2, 3)), ((2, 3), (3,)), ((3,), (2, 3)), ((2, 3), (2,)), ((), (4,))]:
            add("torch.Tensor." + m, [T(a), T(b)], {}, ["broadcast"] if a != b else [])
    # where
    for c, x, y in [((2, 3), (2, 3), (2, 3)), ((2, 3), (3,), ()), ((3,), (2, 3), (2, 1)), ((2, 1), (1, 3), (3,)),
                    ((2, 3), (2, 4), (2, 3)), ((4,), (2, 3), (2, 3)), ((), (2, 3), (2, 3)), ((0, 3), (3,), (1,)),
                    ((2, 1, 1), (3, 1), (4,)), ((1, 2, 3, 4, 5), (5,), ()), ((2, 3), (2, 3), (3, 2))]:
        add("torch.where", [tb(*c), T(x), T(y)], {}, ["broadcast"] if not (c == x == y) else [])
    for a in [[tb(2, 3), t(2, 3), 0.0], [tb(2, 3), 1.0, 0.0], [tb(2, 3), 1, t(3)], [t(2, 3), t(2, 3), t(2, 3)],
              [ti(2, 3), t(2, 3), t(2, 3)], [tb(2, 3), ti(2, 3), t(2, 3)], [tb(2, 3), t(2, 3)], [tb(2, 3)],
              [tb(4)], [tb(2, 3, fill=False)], [tb()], [tb(2, 3), 1, 0]]:
        tags = ["data-dependent"] if len(a) == 1 else []
        add("torch.where", a, {}, tags)
    add("torch.Tensor.where", [t(2, 3), tb(3), t(1)])
    add("torch.Tensor.where", [t(2, 3), tb(4), 0.0])
    # clamp
    for x, k in [((2, 3), {"min": 0.0}), ((2, 3), {"max": 1.0}), ((2, 3), {"min": 0.0, "max": 1.0}), ((2, 3), {}),
                 ((2, 3), {"min": t(3)}), ((2, 3), {"min": t(2, 1), "max": t(3)}), ((2, 3), {"max": t(4)}),
                 ((3,), {"min": t(2, 3)}), ((), {"min": t(2)}), ((2, 3), {"min": t()}), ((0, 3), {"max": t(1)}),
                 ((2, 3), {"min": 0, "max": t(3)}), ((2, 3), {"min": ti(3)}), ((1, 2, 3, 4, 5), {"min": -1.0})]:
        add("torch.clamp", [T(x)], k, ["broadcast"] if any(isinstance(v, T) for v in k.values()) else [])
    add("torch.clamp", [t(2, 3), 0.0, 1.0])
    add("torch.clamp", [t(2, 3), t(3), t(2, 1)])
    add("torch.Tensor.clamp", [t(2, 3)], {"min": 0})
    add("torch.Tensor.clamp", [t(2, 3), t(2)])
    add("torch.clip", [t(2, 3), -1.0, 1.0])
    add("torch.Tensor.clamp_min", [t(2, 3), 0.0])
    # masked_fill
    for x, m, v in [((2, 3), (2, 3), 0.0), ((2, 3), (3,), 0.0), ((2, 3), (2, 1), -1.0), ((2, 3), (2,), 0.0),
                    ((2, 3), (), 1.0), ((2, 3), (4, 2, 3), 0.0), ((2, 3), (1, 1), 5), ((3,), (2, 3), 0.0),
                    ((2, 3, 4), (3, 4), 0.0), ((2, 3, 4), (2, 1, 4), t()), ((2, 3), (2, 3), t(1)),
                    ((2, 3), (2, 3), t(3)), ((0, 3), (1, 3), 0.0), ((), (), 0.0), ((1, 2, 3, 4, 5), (4, 5), 0.0),
                    ((2, 1, 4, 4), (2, 1, 1, 4), float(-1e9)), ((2, 3), (2, 3), True)]:
        add("torch.Tensor.masked_fill", [T(x), tb(*m), v], {}, ["broadcast"] if x != m else [])
    add("torch.Tensor.masked_fill", [t(2, 3), ti(2, 3), 0.0])
    add("torch.Tensor.masked_fill", [t(2, 3), t(2, 3), 0.0])
    add("torch.Tensor.masked_fill", [ti(2, 3), tb(3), 1.5])
    add("torch.Tensor.masked_fill", [t(2, 3)], {"mask": tb(3), "value": 0.0})
    add("torch.masked_fill", [t(2, 3), tb(3), 0.0])
    add("torch.masked_fill", [t(2, 3), tb(2), 0.0])
    add("torch.Tensor.masked_fill_", [t(2, 3), tb(3), 0.0], {}, ["inplace"])
    add("torch.Tensor.masked_fill_", [t(3), tb(2, 3), 0.0], {}, ["inplace"])
    # unary elementwise
    uxs = [t(2, 3), t(), t(0, 4), t(1, 2, 3, 4, 5), ti(3), tb(2, 2), t(7), t(4, 1)]
    for fn in ["torch.relu", "torch.exp", "torch.sigmoid", "torch.tanh", "torch.abs", "torch.neg", "torch.sqrt",
               "torch.log", "torch.sin", "torch.floor", "torch.sign", "torch.nn.functional.relu",
               "torch.nn.functional.gelu", "torch.nn.functional.silu", "torch.nn.functional.leaky_relu",
               "torch.nn.functional.elu", "torch.nn.functional.softplus", "torch.nn.functional.sigmoid",
               "torch.nn.functional.tanh", "torch.Tensor.relu", "torch.Tensor.exp", "torch.Tensor.sigmoid",
               "torch.Tensor.tanh", "torch.Tensor.abs", "torch.Tensor.sqrt", "torch.Tensor.neg"]:
        for x in uxs:
            add(fn, [x])
    add("torch.relu", [t(2, 3), t(2, 3)])
    add("torch.exp", [[1.0, 2.0]])
    add("torch.nn.functional.relu", [t(2, 3)], {"inplace": True})
    add("torch.nn.functional.gelu", [t(2, 3)], {"approximate": "tanh"})
    add("torch.nn.functional.gelu", [t(2, 3)], {"approximate": "bogus"})
    add("torch.nn.functional.leaky_relu", [t(2, 3), 0.2])
    add("torch.nn.functional.glu", [t(2, 4)])
    add("torch.nn.functional.glu", [t(2, 3)])
    add("torch.nn.functional.glu", [t(4, 2), 0])
    add("torch.nn.functional.glu", [t()])
    # type conversions
    for x in [t(2, 3), ti(2, 3), tb(2, 3), t(), t(0, 2), t(1, 2, 3, 4, 5), t(3, 1, 2), ti(), tb(4)]:
        for m in ["float", "long", "int", "bool", "double", "half"]:
            add("torch.Tensor." + m, [x])
        for dt in [torch.int64, torch.float32, torch.bool, torch.float16]:
            add("torch.Tensor.to", [x, dt])
        add("torch.Tensor.to", [x], {"dtype": torch.int64}, ["keyword"])
        add("torch.Tensor.type_as", [x, ti(4)])
        add("torch.Tensor.type_as", [x, t(1, 1)])
        add("torch.Tensor.type", [x, torch.int64])
    add("torch.Tensor.to", [t(2, 3), "cpu"])
    add("torch.Tensor.to", [t(2, 3), ti(5)])
    add("torch.Tensor.to", [t(2, 3), "cpu", torch.int64])
    add("torch.Tensor.to", [t(2, 3), "notadevice"])
    add("torch.Tensor.to", [t(2, 3)])
    add("torch.Tensor.type_as", [t(2, 3), 3])
    add("torch.Tensor.long", [t(2, 3), 1])


# -------------------------------------------------------------------------------------------- products

def gen_products():
    rng = random.Random(SEED + 4)
    A = [(), (3,), (2, 3), (4, 2, 3), (1, 2, 3), (5, 4, 2, 3), (0, 3), (2, 0), (4, 2, 0), (2, 4), (1, 2, 3, 2, 3)]
    B = [(), (3,), (4,), (3, 4), (4, 3), (4, 3, 5), (1, 3, 5), (6, 1, 3, 5), (3, 0), (0, 5), (2, 3, 5)]
    for a in A:
        for b in B:
            add("torch.matmul", [T(a), T(b)], {}, ["rank%d-%d" % (len(a), len(b))])
    for a, b in rng.sample([(a, b) for a in A for b in B], 60):
        add("operator.matmul", [T(a), T(b)], {}, ["rank%d-%d" % (len(a), len(b))])
    for a, b in rng.sample([(a, b) for a in A for b in B], 20):
        add("torch.Tensor.matmul", [T(a), T(b)])
    add("torch.matmul", [ti(2, 3), ti(3, 4)])
    add("torch.matmul", [ti(2, 3), t(3, 4)])
    add("torch.matmul", [tb(2, 3), tb(3, 4)])
    add("torch.matmul", [t(2, 3), 3])
    add("operator.matmul", [t(2, 3), [1.0, 2.0, 3.0]])
    add("operator.imatmul", [t(3, 3), t(3, 3)])
    add("operator.imatmul", [t(2, 3), t(3, 4)])
    # mm / bmm / mv
    for a, b in [((2, 3), (3, 4)), ((2, 3), (4, 3)), ((2, 3), (3,)), ((3,), (3, 4)), ((0, 3), (3, 4)), ((2, 0), (0, 4)),
                 ((2, 3, 4), (4, 5)), ((1, 1), (1, 1)), ((2, 3), (3, 0)), ((), ()), ((5, 7), (7, 2)), ((2, 3), (2, 3))]:
        add("torch.mm", [T(a), T(b)])
        add("torch.Tensor.mm", [T(a), T(b)])
    for a, b in [((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (1, 4, 5)), ((2, 3, 4), (3, 4, 5)), ((2, 3, 4), (2, 5, 4)),
                 ((3, 4), (4, 5)), ((0, 3, 4), (0, 4, 5)), ((2, 3, 0), (2, 0, 5)), ((2, 3, 4), (4, 5)),
                 ((1, 2, 3, 4), (1, 2, 4, 5)), ((4, 1, 1), (4, 1, 1)), ((2, 3, 4), (2, 4, 5, 1))]:
        add("torch.bmm", [T(a), T(b)])
        add("torch.Tensor.bmm", [T(a), T(b)])
    for a, b in [((2, 3), (3,)), ((2, 3), (2,)), ((2, 3), (3, 1)), ((0, 3), (3,)), ((3,), (3,)), ((2, 3, 4), (4,))]:
        add("torch.mv", [T(a), T(b)])
    # baddbmm / addmm / addmv
    for i, a, b in [((2, 3, 5), (2, 3, 4), (2, 4, 5)), ((3, 5), (2, 3, 4), (2, 4, 5)), ((5,), (2, 3, 4), (2, 4, 5)),
                    ((), (2, 3, 4), (2, 4, 5)), ((1, 1, 1), (2, 3, 4), (2, 4, 5)), ((2, 3, 4), (2, 3, 4), (2, 4, 5)),
                    ((2, 3, 5), (2, 3, 4), (2, 5, 5)), ((4, 3, 5), (2, 3, 4), (2, 4, 5)), ((2, 3, 5), (2, 3, 4), (3, 4, 5)),
                    ((2, 1, 5), (2, 3, 4), (2, 4, 5)), ((2, 3, 5), (3, 4), (4, 5))]:
        add("torch.baddbmm", [T(i), T(a), T(b)], {}, ["broadcast"] if len(i) < 3 or 1 in i else [])
    add("torch.baddbmm", [t(2, 3, 5), t(2, 3, 4), t(2, 4, 5)], {"beta": 0.5, "alpha": 2.0})
    for i, a, b in [((2, 4), (2, 3), (3, 4)), ((4,), (2, 3), (3, 4)), ((), (2, 3), (3, 4)), ((1, 4), (2, 3), (3, 4)),
                    ((2, 1), (2, 3), (3, 4)), ((3,), (2, 3), (3, 4)), ((2, 4), (2, 3), (4, 3)), ((2, 4, 1), (2, 3), (3, 4)),
                    ((2, 4), (2, 3, 1), (3, 4)), ((0, 4), (0, 3), (3, 4)), ((2, 4), (2, 0), (0, 4)), ((3, 4), (2, 3), (3, 4))]:
        add("torch.addmm", [T(i), T(a), T(b)], {}, ["broadcast"] if i != (a[0], b[-1]) else [])
    add("torch.addmm", [t(4), t(2, 3), t(3, 4)], {"beta": 0.0})
    add("torch.Tensor.addmm", [t(2, 4), t(2, 3), t(3, 4)])
    for i, a, b in [((2,), (2, 3), (3,)), ((), (2, 3), (3,)), ((3,), (2, 3), (3,)), ((2,), (2, 3), (2,))]:
        add("torch.addmv", [T(i), T(a), T(b)])
    # einsum
    eqs = [
        ("ij->ji", [(2, 3)]), ("ii->", [(3, 3)]), ("ii->i", [(3, 3)]), ("ij->", [(2, 3)]), ("ij->j", [(2, 3)]),
        ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk->ik", [(2, 3), (4, 4)]), ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]),
        ("bij,bjk->bik", [(5, 2, 3), (1, 3, 4)]), ("bij,bjk->bik", [(5, 2, 3), (4, 3, 4)]), ("i,j->ij", [(3,), (4,)]),
        ("i,i->", [(3,), (3,)]), ("i,i->", [(3,), (4,)]), ("...ij,...jk->...ik", [(7, 2, 3), (3, 4)]),
        ("...ij,...jk->...ik", [(7, 2, 3), (6, 1, 3, 4)]), ("...ij->...ji", [(2, 3, 4, 5)]), ("...->...", [()]),
        ("ij,ij->ij", [(2, 3), (2, 3)]), ("ij,ij->i", [(2, 3), (2, 3)]), ("bhqd,bhkd->bhqk", [(2, 4, 5, 8), (2, 4, 6, 8)]),
        ("bhqk,bhkd->bhqd", [(2, 4, 5, 6), (2, 4, 6, 8)]), ("ij->ik", [(2, 3)]), ("ij,jk", [(2, 3), (3, 4)]),
        ("ij,jk->ik", [(2, 3)]), ("ij->i", [(2, 3, 4)]), ("ijk->kji", [(2, 3, 4)]), ("i->ii", [(3,)]),
        ("iij->ij", [(3, 3, 2)]), ("iij->ij", [(3, 2, 2)]), ("ab,cd->abcd", [(2, 3), (4, 5)]), ("Ab->bA", [(2, 3)]),
        ("i j -> j i", [(2, 3)]), ("ij->jj", [(2, 3)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
        ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]), ("ij-ji", [(2, 3)]), ("i,->i", [(3,), ()]),
        ("...i,...i->...", [(2, 3, 4), (4,)]), ("b...,b...->b", [(2, 3, 4), (2, 3, 4)]), ("ij->", [(0, 3)]),
        ("ij,jk->ik", [(0, 3), (3, 4)]), ("ij,jk->ik", [(2, 0), (0, 4)]), ("ij", [(2, 3)]), ("ji", [(2, 3)]),
        ("ij,jk->ikk", [(2, 3), (3, 4)]), ("ij->iz", [(2, 3)]), ("bij,jk->bik", [(5, 2, 3), (3, 4)]),
        ("i1->i", [(2, 1)]), ("ij,kl->ijkl", [(1, 1), (2, 2)]), ("...,...->...", [(2, 3), (3,)]),
        ("ii->i", [(3, 4)]),
    ]
    for eq, shapes in eqs:
        if len(shapes) > 1 and rng.random() < 0.3:
            add("torch.einsum", [eq, [T(s) for s in shapes]], {}, ["list-operands"])
        else:
            add("torch.einsum", [eq] + [T(s) for s in shapes])
    add("torch.einsum", ["ij,jk->ik"])
    add("torch.einsum", [t(2, 3), [0, 1], [1, 0]])
    add("torch.einsum", [t(2, 3), [0, 1], t(3, 4), [1, 2], [0, 2]])
    # outer / dot / vdot / inner
    for a, b in [((3,), (4,)), ((3,), ()), ((), ()), ((0,), (4,)), ((2, 3), (4,)), ((3,), (2, 2)), ((1,), (1,)),
                 ((5,), (5,)), ((3,), (4,))]:
        add("torch.outer", [T(a), T(b)])
        add("torch.dot", [T(a), T(b)])
    add("torch.outer", [ti(3), t(2)])
    add("torch.dot", [ti(3), t(3)])
    add("torch.dot", [ti(3), ti(3)])
    add("torch.Tensor.dot", [t(3), t(3)])
    add("torch.ger", [t(3), t(2)])
    add("torch.vdot", [t(3), t(3)])
    add("torch.inner", [t(2, 3), t(4, 3)])
    add("torch.inner", [t(2, 3), t(4, 2)])
    add("torch.kron", [t(2, 3), t(4, 5)])
    add("torch.tensordot", [t(2, 3, 4), t(3, 4, 5)], {"dims": 2})
    add("torch.tensordot", [t(2, 3, 4), t(4, 3, 5)], {"dims": ([1, 2], [1, 0])})
    add("torch.tensordot", [t(2, 3, 4), t(4, 3, 5)], {"dims": 2})
    # linear
    for x, w, b in [((2, 3), (4, 3), (4,)), ((2, 3), (4, 3), None), ((3,), (4, 3), (4,)), ((5, 2, 3), (4, 3), (4,)),
                    ((2, 3), (3, 4), (4,)), ((2, 3), (4, 3), (3,)), ((2, 3), (4, 3), ()), ((2, 3), (4, 3), (1,)),
                    ((2, 3), (3,), None), ((2, 3), (3,), ()), ((0, 3), (4, 3), (4,)), ((2, 0), (4, 0), (4,)),
                    ((2, 3), (0, 3), (0,)), ((1, 2, 3, 4, 3), (4, 3), (4,)), ((), (4, 3), (4,)), ((2, 3), (4, 3, 1), None),
                    ((2, 3), (4, 3), (2, 4)), ((2, 3), (4, 3), (5, 1, 4)), ((7, 3), (1, 3), (1,)), ((2, 4), (4, 3), (4,))]:
        if b is None and rng.random() < 0.5:
            add("torch.nn.functional.linear", [T(x), T(w)], {}, ["default-args"])
        elif rng.random() < 0.3:
            add("torch.nn.functional.linear", [T(x), T(w)], {"bias": None if b is None else T(b)})
        else:
            add("torch.nn.functional.linear", [T(x), T(w), None if b is None else T(b)])
    for s in rng.sample(A, 8):
        n = s[-1] if s else 3
        add("torch.nn.functional.linear", [T(s), t(6, n), t(6)])
    add("torch.nn.functional.linear", [ti(2, 3), t(4, 3)])
    add("torch.nn.functional.linear", [t(2, 3)])
    # bilinear
    for x1, x2, w, b in [((2, 3), (2, 4), (5, 3, 4), (5,)), ((2, 3), (2, 4), (5, 3, 4), None), ((2, 3), (3, 4), (5, 3, 4), (5,)),
                         ((2, 3), (2, 4), (5, 4, 3), (5,)), ((2, 3), (2, 4), (5, 3, 4), (6,)), ((6, 2, 3), (6, 2, 4), (5, 3, 4), (5,)),
                         ((3,), (4,), (5, 3, 4), (5,)), ((0, 3), (0, 4), (5, 3, 4), (5,)), ((2, 3), (2, 4), (3, 4), None),
                         ((2, 3), (1, 4), (5, 3, 4), None), ((2, 3), (2, 4), (1, 3, 4), (1,))]:
        add("torch.nn.functional.bilinear", [T(x1), T(x2), T(w), None if b is None else T(b)])


# ------------------------------------------------------------------------------------------ reductions

def gen_reductions():
    shapes = [(2, 3, 4), (), (0, 3), (5,), (2, 3, 4, 5, 6), (3, 0)]
    variants = [([], {}), ([0], {}), ([-1], {}), ([2], {}), ([1], {"keepdim": True}), ([], {"dim": (0, 1)}),
                ([(0, -1)], {}), ([], {"dim": -1, "keepdim": True}), ([(0, 0)], {}), ([[]], {}), ([None], {}),
                ([], {"dim": 5}), ([0, True], {})]
    for op, vs in [("torch.sum", variants), ("torch.mean", variants), ("torch.amax", variants),
                   ("torch.amin", variants), ("torch.logsumexp", variants[1:]), ("torch.std", variants),
                   ("torch.var", variants), ("torch.any", variants), ("torch.all", variants),
                   ("torch.prod", variants[:5] + variants[7:8] + [([None], {})]),
                   ("torch.nansum", variants[:6]), ("torch.count_nonzero", variants[:4] + [([(0, 1)], {})])]:
        for s in shapes:
            for a, k in vs:
                add(op, [T(s)] + a, k, ["default-args"] if not a and not k else [])
    for op in ["torch.Tensor.sum", "torch.Tensor.mean", "torch.Tensor.std", "torch.Tensor.any", "torch.Tensor.amax"]:
        for a, k in [([], {}), ([1], {}), ([-1], {"keepdim": True}), ([(0, 1)], {}), ([3], {})]:
            add(op, [t(2, 3, 4)] + a, k)
    for x in [ti(2, 3), tb(2, 3)]:
        for op in ["torch.sum", "torch.mean", "torch.prod", "torch.any", "torch.std"]:
            add(op, [x])
            add(op, [x, 0])
    add("torch.sum", [t(2, 3)], {"dtype": torch.int64})
    add("torch.mean", [t(2, 3)], {"dim": 1, "dtype": torch.float64})
    add("torch.std", [t(2, 3)], {"correction": 0})
    add("torch.std", [t(2, 3), 1], {"unbiased": False})
    add("torch.var", [t(2, 3), 1, True, True])
    add("torch.std_mean", [t(2, 3), 1])
    add("torch.var_mean", [t(2, 3)], {"dim": (0, 1), "keepdim": True})
    add("torch.aminmax", [t(2, 3)])
    add("torch.aminmax", [t(2, 3)], {"dim": 1})
    # max / min
    for op in ["torch.max", "torch.min"]:
        for s in shapes:
            for a, k in [([], {}), ([0], {}), ([-1], {}), ([1], {"keepdim": True}), ([], {"dim": 2}), ([(0, 1)], {}),
                         ([t(4)], {}), ([t(3, 1)], {}), ([t(7)], {})]:
                add(op, [T(s)] + a, k, ["default-args"] if not a and not k else [])
        add(op, [t(2, 3), 1, True])
        add(op, [t(2, 3)], {"dim": 1, "keepdim": False})
        add(op, [ti(2, 3), 1])
        add(op, [tb(2, 3)])
        add(op, [t(2, 3)], {"other": t(2, 3)})
        add(op, [t(2, 3), t(2, 3), 1])
    for op in ["torch.Tensor.max", "torch.Tensor.min"]:
        for a, k in [([], {}), ([1], {}), ([-1], {"keepdim": True}), ([2], {}), ([t(3)], {})]:
            add(op, [t(2, 3)] + a, k)
    for op in ["torch.argmax", "torch.argmin"]:
        for s in shapes:
            for a, k in [([], {}), ([0], {}), ([-1], {}), ([], {"dim": 1, "keepdim": True}), ([None], {"keepdim": True}),
                         ([2], {}), ([(0, 1)], {})]:
                add(op, [T(s)] + a, k, ["default-args"] if not a and not k else [])
        add(op, [ti(3, 4), 1])
        add(op, [tb(3, 4), 1])
    add("torch.Tensor.argmax", [t(2, 3)], {"dim": -1})
    add("torch.Tensor.argmax", [t(2, 3)])
    # norm
    for s in [(2, 3, 4), (), (0, 3), (5,), (2, 3, 4, 5, 6)]:
        for a, k in [([], {}), ([2], {}), ([], {"dim": 1}), ([], {"dim": (0, 1)}), ([1], {"dim": -1, "keepdim": True}),
                     (["fro"], {}), (["fro"], {"dim": (0, 1)}), (["nuc"], {}), ([], {"p": 1.0, "dim": 0}),
                     ([], {"dim": 3})]:
            add("torch.norm", [T(s)] + a, k, ["default-args"] if not a and not k else [])
    add("torch.Tensor.norm", [t(2, 3)])
    add("torch.Tensor.norm", [t(2, 3)], {"dim": 1})
    add("torch.Tensor.norm", [t(2, 3), 2, 1, True])
    add("torch.norm", [ti(2, 3)])
    for a, k in [([t(2, 3)], {}), ([t(2, 3)], {"dim": 1}), ([t(2, 3), 2], {}), ([t(2, 3)], {"ord": "fro"}),
                 ([t(2, 3, 4)], {"ord": "fro"}), ([t(2, 3, 4)], {"dim": (1, 2)}), ([t(5)], {"ord": 1}),
                 ([t(2, 3)], {"dim": (0, 1), "keepdim": True}), ([t()], {}), ([t(2, 3)], {"dim": 2}),
                 ([ti(2, 3)], {}), ([t(2, 3, 4)], {"ord": 2})]:
        add("torch.linalg.norm", a, k)
    for a, k in [([t(2, 3)], {}), ([t(2, 3)], {"dim": 1}), ([t(2, 3)], {"dim": (0, 1)}), ([t(2, 3), 1.0, -1], {})]:
        add("torch.linalg.vector_norm", a, k)
    for a, k in [([t(2, 3)], {}), ([t(4, 2, 3)], {}), ([t(3)], {}), ([t(2, 3)], {"ord": "nuc"})]:
        add("torch.linalg.matrix_norm", a, k)
    # softmax / log_softmax / cumsum / cumprod
    for op in ["torch.softmax", "torch.log_softmax", "torch.nn.functional.softmax", "torch.nn.functional.log_softmax",
               "torch.cumsum", "torch.cumprod", "torch.Tensor.softmax", "torch.Tensor.cumsum", "torch.logcumsumexp"]:
        for s in shapes:
            for a, k in [([0], {}), ([-1], {}), ([], {"dim": 2}), ([], {}), ([None], {}), ([1], {"dtype": torch.float64})]:
                if op.startswith("torch.Tensor.") and k.get("dtype") is not None:
                    continue
                add(op, [T(s)] + a, k, ["default-args"] if not a and not k else [])
        add(op, [ti(2, 3), 1])
    add("torch.nn.functional.softmax", [t(2, 3)], {"dim": (0, 1)})
    add("torch.nn.functional.softmin", [t(2, 3)], {"dim": 1})
    add("torch.nn.functional.softmax", [t(2, 3), 1, 3])
    # topk / sort / kthvalue
    for s, a, k in [((5,), [2], {}), ((5,), [5], {}), ((5,), [6], {}), ((5,), [0], {}), ((5,), [-1], {}),
                    ((2, 5), [3], {}), ((2, 5), [3], {"dim": 0}), ((2, 5), [2], {"dim": 0}), ((2, 5), [3, 0], {}),
                    ((2, 5), [1], {"dim": -2, "largest": False}), ((2, 5), [1, 2], {}), ((), [1], {}), ((), [0], {}),
                    ((0, 4), [2], {}), ((0, 4), [0], {"dim": 0}), ((2, 3, 4, 5, 6), [3], {"dim": 2}),
                    ((2, 5), [2], {"sorted": False}), ((2, 5), [2.0], {})]:
        add("torch.topk", [T(s)] + a, k)
    add("torch.Tensor.topk", [t(3, 4), 2])
    add("torch.Tensor.topk", [t(3, 4)], {"k": 5})
    add("torch.topk", [ti(3, 4), 2])
    for s, a, k in [((5,), [], {}), ((2, 5), [], {}), ((2, 5), [0], {}), ((2, 5), [], {"dim": -2, "descending": True}),
                    ((2, 5), [2], {}), ((), [], {}), ((), [0], {}), ((0, 3), [1], {}), ((2, 3, 4, 5, 6), [3], {}),
                    ((2, 5), [], {"stable": True})]:
        add("torch.sort", [T(s)] + a, k)
    add("torch.Tensor.sort", [t(3, 4)], {"dim": 0})
    add("torch.argsort", [t(3, 4)])
    add("torch.argsort", [t(3, 4), 0])
    add("torch.argsort", [t(3, 4), 2])
    add("torch.kthvalue", [t(3, 4), 2])
    add("torch.kthvalue", [t(3, 4), 5])
    add("torch.median", [t(3, 4)])
    add("torch.median", [t(3, 4), 1])
    add("torch.mode", [t(3, 4)])
    # gather / index_select / scatter
    for x, d, idx in [((3, 4), 1, (3, 2)), ((3, 4), 0, (2, 4)), ((3, 4), 1, (3, 6)), ((3, 4), 1, (2, 2)), ((3, 4), 1, (4, 2)),
                      ((3, 4), 0, (3, 5)), ((3, 4), 1, (3,)), ((3, 4), -1, (3, 1)), ((3, 4), 2, (3, 4)), ((2, 3, 4), 2, (2, 3, 1)),
                      ((2, 3, 4), 1, (1, 1, 1)), ((3,), 0, (5,)), ((), 0, ()), ((3, 4), 1, (0, 2)), ((0, 4), 1, (0, 2)),
                      ((3, 4), 1, (3, 0)), ((1, 2, 3, 4, 5), 4, (1, 2, 3, 4, 2)), ((3, 4), 0, (1, 1, 1))]:
        add("torch.gather", [T(x), d, ti(*idx)])
    add("torch.gather", [t(3, 4), 1, t(3, 2)])
    add("torch.gather", [t(3, 4), 1, ti(3, 2, fill=9)], {}, ["data-dependent"])
    add("torch.gather", [t(3, 4)], {"dim": 1, "index": ti(3, 1)})
    add("torch.Tensor.gather", [t(3, 4), 1, ti(3, 2)])
    add("torch.Tensor.gather", [t(3, 4), 0, ti(3, 5)])
    for x, d, idx in [((3, 4), 0, (2,)), ((3, 4), 1, (5,)), ((3, 4), -1, (0,)), ((3, 4), 2, (2,)), ((3, 4), 0, (2, 2)),
                      ((3, 4), 0, ()), ((), 0, (1,)), ((), 0, ()), ((0, 4), 1, (3,)), ((2, 3, 4, 5, 6), 3, (7,)),
                      ((5,), 0, (3,)), ((3, 4), 1, (1,))]:
        add("torch.index_select", [T(x), d, ti(*idx)])
    add("torch.index_select", [t(3, 4), 0, t(2)])
    add("torch.index_select", [t(3, 4), 0, ti(2, fill=5)], {}, ["data-dependent"])
    add("torch.index_select", [t(0, 4), 0, ti(2)])
    add("torch.Tensor.index_select", [t(3, 4), 1, ti(6)])
    add("torch.index_select", [t(3, 4)], {"dim": 1, "index": ti(2)})
    for x, d, idx, src in [((3, 4), 1, (3, 2), (3, 2)), ((3, 4), 1, (3, 2), (3, 4)), ((3, 4), 1, (3, 2), (2, 2)),
                           ((3, 4), 0, (2, 4), (3, 4)), ((3, 4), 0, (4, 4), (4, 4)), ((3, 4), 1, (3, 5), (3, 5)),
                           ((3, 4), 1, (3,), (3,)), ((3, 4), 2, (3, 2), (3, 2)), ((3, 4), -1, (1, 1), (1, 1)),
                           ((2, 3, 4), 2, (2, 3, 1), (2, 3, 4)), ((5,), 0, (3,), (3,)), ((3, 4), 1, (0, 2), (0, 2))]:
        add("torch.scatter", [T(x), d, ti(*idx), T(src)])
    for x, d, idx, v in [((3, 4), 1, (3, 2), 1.0), ((3, 4), 1, (3, 5), 1.0), ((3, 4), 0, (2, 2), 0)]:
        add("torch.scatter", [T(x), d, ti(*idx)], {"value": v})
    add("torch.scatter", [t(3, 4), 1, ti(3, 2), t(3, 2)], {"reduce": "add"})
    add("torch.Tensor.scatter", [t(3, 4), 1, ti(3, 2), t(3, 2)])
    add("torch.Tensor.scatter_", [t(3, 4), 1, ti(3, 2), t(3, 2)], {}, ["inplace"])
    add("torch.Tensor.scatter_add", [t(3, 4), 1, ti(3, 2), t(3, 2)])
    add("torch.scatter_add", [t(3, 4), 0, ti(4, 4), t(4, 4)])
    add("torch.scatter_reduce", [t(3, 4), 1, ti(3, 2), t(3, 2), "sum"])
    add("torch.scatter_reduce", [t(3, 4), 1, ti(3, 2), t(3, 2), "bogus"])
    add("torch.Tensor.index_add", [t(3, 4), 0, ti(2), t(2, 4)])
    add("torch.Tensor.index_add", [t(3, 4), 0, ti(2), t(2, 3)])
    add("torch.Tensor.index_fill", [t(3, 4), 1, ti(2), 0.0])
    add("torch.Tensor.index_copy", [t(3, 4), 0, ti(2), t(2, 4)])
    add("torch.take_along_dim", [t(3, 4), ti(3, 2), 1])
    add("torch.take_along_dim", [t(3, 4), ti(3, 2)])
    add("torch.take_along_dim", [t(3, 4), ti(1, 2), 1])


# -------------------------------------------------------------------------------------------------- nn

def conv_spatial_cases(rng, nd, n, transpose=False):
    """Random (init_args, init_kwargs, input_shape) for ConvNd / ConvTransposeNd."""
    out = []
    for _ in range(n):
        groups = rng.choice([1, 1, 1, 2, 3])
        cin = rng.choice([1, 2, 3, 4, 6]) if groups == 1 else groups * rng.choice([1, 2])
        cout = rng.choice([1, 2, 4, 6, 8]) if groups == 1 else groups * rng.choice([1, 2])
        if rng.random() < 0.08:
            cout += 1   # groups not dividing out_channels
        k = rng.choice([1, 2, 3, 3, 5]) if rng.random() < 0.8 else tuple(rng.choice([1, 2, 3]) for _ in range(nd))
        kw = {}
        if rng.random() < 0.4:
            kw["stride"] = rng.choice([1, 2, 3]) if rng.random() < 0.8 else tuple(rng.choice([1, 2]) for _ in range(nd))
        if rng.random() < 0.5:
            if transpose:
                kw["padding"] = rng.choice([0, 1, 2])
            else:
                kw["padding"] = rng.choice([0, 1, 2, 4, "same", "valid", "same"]) if rng.random() < 0.85 else \
                    tuple(rng.choice([0, 1]) for _ in range(nd))
        if rng.random() < 0.25:
            kw["dilation"] = rng.choice([1, 2, 3])
        if groups != 1:
            kw["groups"] = groups
        if transpose and rng.random() < 0.3:
            kw["output_padding"] = rng.choice([0, 1, 2])
        if not transpose and rng.random() < 0.12:
            kw["padding_mode"] = rng.choice(["reflect", "replicate", "circular", "zeros", "bogus"])
        if rng.random() < 0.15:
            kw["bias"] = False
        # input
        batch = rng.choice([[1], [2], [2], [0], []] if rng.random() < 0.9 else [[2, 2]])
        c = cin if rng.random() < 0.88 else cin + 1
        spatial = [rng.choice([1, 3, 5, 8]) for _ in range(nd)]
        shape = tuple(batch + [c] + spatial)
        init_args = [cin, cout, k]
        if rng.random() < 0.3:
            out.append(([], dict(kw, in_channels=cin, out_channels=cout, kernel_size=k), shape))
        else:
            out.append((init_args, kw, shape))
    return out


def gen_nn_conv():
    rng = random.Random(SEED + 5)
    for nd, n in [(1, 70), (2, 160), (3, 60)]:
        name = "torch.nn.Conv%dd" % nd
        for ia, ik, shape in conv_spatial_cases(rng, nd, n):
            mod(name, ia, ik, [T(shape)], tags=["module"])
        name = "torch.nn.ConvTranspose%dd" % nd
        for ia, ik, shape in conv_spatial_cases(rng, nd, {1: 40, 2: 60, 3: 40}[nd], transpose=True):
            mod(name, ia, ik, [T(shape)], tags=["module"])
    # explicit edge cases
    mod("torch.nn.Conv2d", [3, 8, 3], {}, [t(2, 3, 32, 32)], tags=["default-args"])
    mod("torch.nn.Conv2d", [3, 8, 3], {"stride": 2, "padding": "same"}, [t(2, 3, 8, 8)])
    mod("torch.nn.Conv2d", [3, 8, 3], {"padding": "same", "dilation": 2}, [t(2, 3, 8, 8)])
    mod("torch.nn.Conv2d", [3, 8, 4], {"padding": "same"}, [t(2, 3, 8, 8)])
    mod("torch.nn.Conv2d", [3, 8, 3], {"padding": "full"}, [t(2, 3, 8, 8)])
    mod("torch.nn.Conv2d", [3, 8, 3], {"padding": 5}, [t(2, 3, 2, 2)], tags=["padding-gt-kernel"])
    mod("torch.nn.Conv2d", [3, 8, 3], {"padding": 2, "padding_mode": "reflect"}, [t(2, 3, 2, 2)])
    mod("torch.nn.Conv2d", [3, 8, 3], {}, [t(2, 3, 2, 2)])
    mod("torch.nn.Conv2d", [3, 8, 3], {}, [t(3, 8, 8)], tags=["unbatched"])
    mod("torch.nn.Conv2d", [3, 8, 3], {}, [t(2, 2, 3, 8, 8)])
    mod("torch.nn.Conv2d", [3, 8, 3], {}, [t(8, 8)])
    mod("torch.nn.Conv2d", [3, 8, 3], {}, [ti(2, 3, 8, 8)])
    mod("torch.nn.Conv2d", [4, 8, 3], {"groups": 3}, [t(2, 4, 8, 8)])
    mod("torch.nn.Conv2d", [4, 6, 3], {"groups": 4}, [t(2, 4, 8, 8)])
    mod("torch.nn.Conv2d", [0, 8, 3], {}, [t(2, 0, 8, 8)])
    mod("torch.nn.Conv2d", [3, 8, 0], {}, [t(2, 3, 8, 8)])
    mod("torch.nn.Conv2d", [3, 8, (3, 5)], {"stride": (1, 2), "padding": (1, 2)}, [t(1, 3, 7, 9)])
    mod("torch.nn.Conv2d", [3, 8, 3], {"stride": 0}, [t(1, 3, 7, 9)])
    mod("torch.nn.Conv2d", [3, 8, 3], {"padding": -1}, [t(1, 3, 7, 9)])
    mod("torch.nn.Conv2d", [3, 8], {}, [t(1, 3, 7, 9)])
    mod("torch.nn.Conv1d", [16, 33, 3], {"stride": 2}, [t(20, 16, 50)])
    mod("torch.nn.Conv1d", [16, 33, 3], {}, [t(16, 50)], tags=["unbatched"])
    mod("torch.nn.Conv3d", [16, 33, 3], {"stride": 2}, [t(2, 16, 5, 6, 7)])
    mod("torch.nn.Conv3d", [16, 33, (3, 5, 2)], {"stride": (2, 1, 1), "padding": (4, 2, 0)}, [t(2, 16, 10, 5, 10)])
    mod("torch.nn.ConvTranspose2d", [16, 33, 3], {"stride": 2, "output_padding": 2}, [t(2, 16, 5, 5)])
    mod("torch.nn.ConvTranspose2d", [16, 33, 3], {"stride": 2, "output_padding": 1}, [t(2, 16, 5, 5)])
    mod("torch.nn.ConvTranspose2d", [16, 33, 3], {"padding": "same"}, [t(2, 16, 5, 5)])
    mod("torch.nn.ConvTranspose2d", [16, 32, 3], {"groups": 3}, [t(2, 16, 5, 5)])
    mod("torch.nn.ConvTranspose2d", [16, 32, 3], {"padding_mode": "reflect"}, [t(2, 16, 5, 5)])
    mod("torch.nn.ConvTranspose1d", [4, 4, 3], {"stride": 2}, [t(1, 4, 5)], kwargs={"output_size": [11]})
    mod("torch.nn.ConvTranspose1d", [4, 4, 3], {"stride": 2}, [t(1, 4, 5)], kwargs={"output_size": [14]})
    mod("torch.nn.ConvTranspose2d", [4, 4, 3], {"stride": 2}, [t(1, 4, 5, 5)], kwargs={"output_size": (12, 11)})
    # functional conv
    for nd, n in [(1, 30), (2, 70), (3, 25)]:
        fn = F + "conv%dd" % nd
        for ia, ik, shape in conv_spatial_cases(rng, nd, n):
            if "in_channels" in ik:
                ia = [ik.pop("in_channels"), ik.pop("out_channels"), ik.pop("kernel_size")]
            cin, cout, k = ia
            if ik.pop("padding_mode", None):
                pass
            ik.pop("bias", None)
            g = ik.get("groups", 1)
            ks = list(k) if isinstance(k, tuple) else [k] * nd
            w = T((cout, max(cin // g, 1) if cin % g == 0 else cin // g + 1) + tuple(ks))
            bias = rng.choice([None, T((cout,)), T((cout,)), T((cout + 1,))])
            a = [T(shape), w]
            if bias is not None or rng.random() < 0.5:
                a.append(bias)
            add(fn, a, ik, ["functional"])
        tfn = F + "conv_transpose%dd" % nd
        for ia, ik, shape in conv_spatial_cases(rng, nd, 15, transpose=True):
            if "in_channels" in ik:
                ia = [ik.pop("in_channels"), ik.pop("out_channels"), ik.pop("kernel_size")]
            cin, cout, k = ia
            ik.pop("bias", None)
            g = ik.get("groups", 1)
            ks = list(k) if isinstance(k, tuple) else [k] * nd
            w = T((cin, max(cout // g, 1)) + tuple(ks))
            add(tfn, [T(shape), w], ik, ["functional"])
    add(F + "conv2d", [t(2, 3, 8, 8), t(8, 3, 3, 3)], {"padding": "same", "stride": 2})
    add(F + "conv2d", [t(2, 3, 8, 8), t(8, 3, 3)])
    add(F + "conv2d", [t(2, 3, 8, 8), t(8, 3, 3, 3), t(8)], {"padding": 1})
    add(F + "conv2d", [t(2, 3, 8, 8), t(8, 1, 3, 3)], {"groups": 3})
    add(F + "conv1d", [t(2, 3, 8), t(8, 3, 9)])
    add(F + "conv1d", [t(2, 3, 8), t(8, 3, 9)], {"padding": 1})
    add(F + "conv3d", [t(3, 4, 4, 4), t(2, 3, 1, 1, 1)], {}, ["unbatched"])


def gen_nn_pool():
    rng = random.Random(SEED + 6)
    for nd in (1, 2, 3):
        for kind, n in [("Max", {1: 30, 2: 60, 3: 30}[nd]), ("Avg", {1: 30, 2: 50, 3: 30}[nd])]:
            name = "torch.nn.%sPool%dd" % (kind, nd)
            fname = F + "%s_pool%dd" % (kind.lower(), nd)
            for i in range(n):
                k = rng.choice([1, 2, 3, 3, 4]) if rng.random() < 0.85 else tuple(rng.choice([2, 3]) for _ in range(nd))
                kw = {}
                if rng.random() < 0.5:
                    kw["stride"] = rng.choice([1, 2, 3, None])
                if rng.random() < 0.4:
                    kw["padding"] = rng.choice([0, 1, 2])
                if kind == "Max" and rng.random() < 0.25:
                    kw["dilation"] = rng.choice([1, 2])
                if rng.random() < 0.25:
                    kw["ceil_mode"] = True
                if kind == "Max" and rng.random() < 0.15:
                    kw["return_indices"] = True
                if kind == "Avg" and rng.random() < 0.15:
                    kw["count_include_pad"] = False
                batch = rng.choice([[2], [1], [0], []])
                c = rng.choice([1, 3])
                spatial = [rng.choice([1, 2, 4, 5, 8]) for _ in range(nd)]
                x = T(tuple(batch + [c] + spatial))
                if rng.random() < 0.03:
                    x = T(tuple([2, 2] + [c] + spatial))
                if i % 3 == 2:
                    add(fname, [x, k], kw, ["functional"])
                else:
                    mod(name, [k], kw, [x], tags=["module"])
    mod("torch.nn.MaxPool2d", [2], {"padding": 2}, [t(1, 1, 8, 8)], tags=["padding-gt-kernel"])
    mod("torch.nn.AvgPool2d", [3], {"padding": 2}, [t(1, 1, 8, 8)], tags=["padding-gt-kernel"])
    mod("torch.nn.MaxPool2d", [3], {"stride": 2, "padding": 1}, [t(1, 64, 112, 112)])
    mod("torch.nn.MaxPool2d", [2], {}, [t(1, 1, 1, 1)])
    mod("torch.nn.MaxPool2d", [0], {}, [t(1, 1, 4, 4)])
    mod("torch.nn.MaxPool2d", [2], {"stride": 0}, [t(1, 1, 4, 4)])
    mod("torch.nn.MaxPool2d", [(2, 2, 2)], {}, [t(1, 1, 4, 4)])
    mod("torch.nn.MaxPool1d", [2], {}, [t(4)])
    mod("torch.nn.AvgPool1d", [2], {}, [t(1, 1, 1)])
    mod("torch.nn.AvgPool2d", [2], {"divisor_override": 3}, [t(1, 1, 4, 4)])
    mod("torch.nn.AvgPool3d", [2], {}, [t(2, 4, 4, 4)])
    mod("torch.nn.MaxPool3d", [2], {}, [t(2, 3, 4, 4, 4, 4)])
    add(F + "max_pool2d", [t(1, 1, 8, 8)], {"kernel_size": 2})
    add(F + "max_pool2d", [t(1, 1, 8, 8), 2, 2, 0, 1, False, True])
    add(F + "avg_pool2d", [t(1, 1, 8, 8), 3, 3, 1, True])
    add(F + "max_pool2d_with_indices", [t(1, 1, 8, 8), 2])
    add(F + "lp_pool2d", [t(1, 1, 8, 8), 2.0, 2])
    mod("torch.nn.LPPool1d", [2, 3], {}, [t(1, 2, 9)])
    # adaptive
    outs = {1: [1, 3, 4, 8, (2,), None, 0, -1, (2, 2)],
            2: [1, 3, (2, 3), (None, 2), (4, None), (1, 1), 7, 0, (2, 2, 2), (None, None), (-1, 2)],
            3: [1, (2, 3, 4), (None, 2, None), 2, (2, 2)]}
    ins = {1: [(2, 3, 8), (3, 8), (2, 3, 0), (2, 3, 2), (8,), (2, 2, 3, 8)],
           2: [(2, 3, 8, 8), (3, 5, 7), (2, 3, 1, 1), (2, 3, 0, 4), (0, 3, 4, 4), (8, 8), (2, 2, 3, 8, 8)],
           3: [(2, 3, 4, 4, 4), (3, 4, 4, 4), (2, 3, 4, 4), (1, 1, 2, 0, 2)]}
    for nd in (1, 2, 3):
        for o in outs[nd]:
            for s in ins[nd]:
                mod("torch.nn.AdaptiveAvgPool%dd" % nd, [o], {}, [T(s)], tags=["module"])
                if nd < 3 or s == ins[nd][0]:
                    mod("torch.nn.AdaptiveMaxPool%dd" % nd, [o], {}, [T(s)], tags=["module"])
    mod("torch.nn.AdaptiveMaxPool2d", [(2, 2)], {"return_indices": True}, [t(1, 3, 8, 8)])
    mod("torch.nn.AdaptiveAvgPool2d", [], {"output_size": (1, 1)}, [t(1, 3, 8, 8)])
    mod("torch.nn.AdaptiveAvgPool2d", [], {}, [t(1, 3, 8, 8)])
    for a in [[t(2, 3, 8, 8), 1], [t(2, 3, 8, 8), (2, 4)], [t(2, 3, 8), 2], [t(3, 8, 8), (None, 3)], [t(2, 3, 8, 8)],
              [t(8), 2]]:
        add(F + "adaptive_avg_pool2d", a, {}, ["functional"])
    for a in [[t(2, 3, 8), 4], [t(2, 3, 8), (4,)], [t(2, 3, 8, 8), 4], [t(3, 8), 1]]:
        add(F + "adaptive_avg_pool1d", a, {}, ["functional"])
        add(F + "adaptive_max_pool1d", a, {}, ["functional"])
    add(F + "adaptive_max_pool2d", [t(2, 3, 8, 8), 2], {"return_indices": True})
    add(F + "adaptive_avg_pool3d", [t(2, 3, 8, 8, 8), (1, 2, 3)])


def gen_nn_norm():
    # BatchNorm
    for nd, ins in [(1, [(4, 5), (4, 5, 7), (1, 5), (1, 5, 7), (4, 6), (4, 6, 7), (5,), (4, 5, 7, 2), (0, 5), (4, 5, 0)]),
                    (2, [(2, 5, 4, 4), (1, 5, 1, 1), (1, 5, 2, 2), (2, 6, 4, 4), (5, 4, 4), (2, 5, 4), (0, 5, 4, 4),
                         (2, 5, 4, 4, 4)]),
                    (3, [(2, 5, 2, 2, 2), (1, 5, 1, 1, 1), (5, 2, 2, 2), (2, 4, 2, 2, 2), (2, 5, 2, 2)])]:
        name = "torch.nn.BatchNorm%dd" % nd
        for s in ins:
            mod(name, [5], {}, [T(s)], tags=["module"])
            mod(name, [5], {"affine": False, "track_running_stats": False}, [T(s)], tags=["module"])
        mod(name, [5], {"momentum": None}, [T(ins[0])])
        mod(name, [0], {}, [T(ins[0])])
        mod(name, [], {"num_features": 5, "eps": 1e-3}, [T(ins[0])])
        mod(name, [5, 1e-5, 0.1, False], {}, [T(ins[0])])
        mod(name, [5, 1e-5, 0.1, True, False], {}, [T(ins[1])])
    for a, k in [([t(4, 5), t(5), t(5)], {}), ([t(4, 5), t(6), t(6)], {}), ([t(4, 5, 3), t(5), t(5), t(5), t(5)], {}),
                 ([t(4, 5), t(5), t(5)], {"training": True}), ([t(1, 5), None, None], {"training": True}),
                 ([t(4, 5), None, None], {"training": True}), ([t(4, 5), t(5), t(5)], {"weight": t(4)}),
                 ([t(2, 5, 3, 3), t(5), t(5)], {})]:
        add(F + "batch_norm", a, k, ["functional"])
    # LayerNorm
    for ns, s in [(4, (2, 3, 4)), (4, (2, 3, 5)), ((3, 4), (2, 3, 4)), ((2, 3, 4), (2, 3, 4)), ((2, 3), (2, 3, 4)),
                  ([4], (4,)), (4, ()), ((4,), (0, 4)), (torch.Size([3, 4]), (2, 3, 4)), ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5)),
                  ((5,), (1, 2, 3, 4, 5)), ((), (2, 3)), (0, (2, 0)), (8, (2, 10, 8)), ((10, 8), (2, 10, 8)), ((8, 10), (2, 10, 8))]:
        mod("torch.nn.LayerNorm", [ns], {}, [T(s)], tags=["module"])
    mod("torch.nn.LayerNorm", [4], {"elementwise_affine": False}, [t(2, 4)])
    mod("torch.nn.LayerNorm", [4], {"bias": False}, [t(2, 5)])
    mod("torch.nn.LayerNorm", [], {"normalized_shape": 4, "eps": 1e-6}, [t(3, 4)])
    mod("torch.nn.LayerNorm", [-1], {}, [t(3, 4)])
    for a in [[t(2, 3, 4), (4,)], [t(2, 3, 4), (3, 4)], [t(2, 3, 4), (3,)], [t(2, 3, 4), (4,), t(4), t(4)],
              [t(2, 3, 4), (4,), t(5)], [t(2, 3, 4), [4]], [t(2, 3, 4), 4], [t(4), (4,)], [t(0, 4), (4,)],
              [t(2, 3, 4), (2, 3, 4)], [t(2, 3, 4), torch.Size([3, 4])]]:
        add(F + "layer_norm", a, {}, ["functional"])
    mod("torch.nn.RMSNorm", [4], {}, [t(2, 4)])
    mod("torch.nn.RMSNorm", [4], {}, [t(2, 5)])
    add(F + "rms_norm", [t(2, 3, 4), (4,)])
    # GroupNorm
    for g, c, s in [(2, 4, (2, 4, 5)), (2, 4, (2, 4, 3, 3)), (3, 4, (2, 4, 5)), (2, 4, (2, 6, 5)), (1, 4, (2, 4)),
                    (4, 4, (2, 4, 3, 3, 3)), (2, 4, (4,)), (2, 4, (2, 4, 0)), (0, 4, (2, 4)), (2, 0, (2, 0)), (2, 4, (0, 4, 5)),
                    (4, 8, (1, 8, 2, 2)), (2, 4, (4, 5)), (8, 4, (2, 4, 5))]:
        mod("torch.nn.GroupNorm", [g, c], {}, [T(s)], tags=["module"])
    mod("torch.nn.GroupNorm", [2, 4], {"affine": False}, [t(2, 4, 5)])
    add(F + "group_norm", [t(2, 4, 5), 2])
    add(F + "group_norm", [t(2, 4, 5), 3])
    add(F + "group_norm", [t(2, 4, 5), 2, t(4), t(4)])
    add(F + "group_norm", [t(2, 4, 5), 2, t(3)])
    # InstanceNorm
    for nd, ins in [(1, [(2, 3, 5), (3, 5), (2, 4, 5), (2, 3), (2, 3, 1), (2, 3, 5, 5)]),
                    (2, [(2, 3, 4, 4), (3, 4, 4), (2, 4, 4, 4), (2, 3, 4), (2, 3, 1, 1), (2, 3, 4, 4, 4)]),
                    (3, [(2, 3, 2, 2, 2), (3, 2, 2, 2), (2, 3, 2, 2)])]:
        name = "torch.nn.InstanceNorm%dd" % nd
        for s in ins:
            mod(name, [3], {}, [T(s)], tags=["module"])
            mod(name, [3], {"affine": True}, [T(s)], tags=["module"])
        mod(name, [3], {"track_running_stats": True}, [T(ins[0])])
    add(F + "instance_norm", [t(2, 3, 5)])
    add(F + "instance_norm", [t(2, 3, 1)])
    add(F + "instance_norm", [t(2, 3, 5)], {"weight": t(4), "bias": t(4)})
    mod("torch.nn.LocalResponseNorm", [2], {}, [t(2, 4, 5, 5)])
    add(F + "local_response_norm", [t(2, 4), 2])


def gen_nn_embedding():
    for shp in [(4,), (2, 3), (), (0,), (2, 3, 4), (1, 2, 3, 4, 5), (2, 0)]:
        mod("torch.nn.Embedding", [10, 3], {}, [ti(*shp)], tags=["module"])
    for ia, ik, x in [([10, 3], {"padding_idx": 0}, ti(2, 3)), ([10, 3], {"padding_idx": -1}, ti(2, 3)),
                      ([10, 3], {"padding_idx": 10}, ti(2, 3)), ([10, 3], {"padding_idx": -11}, ti(2, 3)),
                      ([10, 3], {}, t(2, 3)), ([10, 3], {}, tb(2, 3)), ([10, 3], {}, ti(2, 3, fill=10)),
                      ([10, 3], {}, ti(2, 3, fill=-1)), ([10, 3], {"max_norm": 1.0}, ti(2, 3)), ([0, 3], {}, ti(2)),
                      ([10, 0], {}, ti(2)), ([], {"num_embeddings": 5, "embedding_dim": 2}, ti(3)), ([10], {}, ti(2)),
                      ([-1, 3], {}, ti(2)), ([10, 3], {"sparse": True}, ti(4)), ([10, 3], {"_weight": t(10, 3)}, ti(4)),
                      ([10, 3], {"_weight": t(10, 4)}, ti(4))]:
        tags = ["module"] + (["data-dependent"] if isinstance(x, T) and x.fill is not None else [])
        mod("torch.nn.Embedding", ia, ik, [x], tags=tags)
    for a, k in [([ti(2, 3), t(10, 4)], {}), ([ti(5), t(10, 4)], {}), ([ti(), t(10, 4)], {}), ([ti(2, 3), t(10)], {}),
                 ([ti(2, 3), t(10, 4, 2)], {}), ([t(2, 3), t(10, 4)], {}), ([ti(2, 3), t(10, 4)], {"padding_idx": 1}),
                 ([ti(2, 3, fill=12), t(10, 4)], {})]:
        add(F + "embedding", a, k, ["functional"])
    # EmbeddingBag
    for ia, ik, a, k in [([10, 3], {}, [ti(2, 4)], {}), ([10, 3], {"mode": "sum"}, [ti(2, 4)], {}),
                         ([10, 3], {"mode": "max"}, [ti(2, 4)], {}), ([10, 3], {}, [ti(8), ti(2)], {}),
                         ([10, 3], {}, [ti(8)], {"offsets": ti(5)}), ([10, 3], {}, [ti(8)], {}),
                         ([10, 3], {}, [ti(2, 4), ti(2)], {}), ([10, 3], {}, [ti(2, 3, 4)], {}), ([10, 3], {}, [ti(0, 4)], {}),
                         ([10, 3], {}, [ti(8), ti(2, 1)], {}), ([10, 3], {}, [t(2, 4)], {}), ([10, 3], {"mode": "bogus"}, [ti(2, 4)], {}),
                         ([10, 3], {"mode": "sum"}, [ti(2, 4)], {"per_sample_weights": t(2, 4)}),
                         ([10, 3], {"mode": "sum"}, [ti(2, 4)], {"per_sample_weights": t(2, 3)}),
                         ([10, 3], {}, [ti(2, 4)], {"per_sample_weights": t(2, 4)}),
                         ([10, 3], {"include_last_offset": True}, [ti(8), ti(3)], {}), ([10, 3], {}, [ti(8), ti()], {}),
                         ([10, 3], {"padding_idx": 0}, [ti(2, 4)], {})]:
        mod("torch.nn.EmbeddingBag", ia, ik, a, k, tags=["module"])
    add(F + "embedding_bag", [ti(2, 4), t(10, 3)])
    add(F + "embedding_bag", [ti(8), t(10, 3), ti(3)])
    add(F + "embedding_bag", [ti(8), t(10, 3)])
    # one_hot
    for x, k in [(ti(3), {}), (ti(3), {"num_classes": 5}), (ti(2, 3), {"num_classes": 4}), (ti(), {"num_classes": 3}),
                 (ti(0), {"num_classes": 3}), (ti(0), {}), (ti(3, fill=5), {"num_classes": 3}), (t(3), {"num_classes": 3}),
                 (ti(3), {"num_classes": 0}), (ti(1, 2, 3, 4, 5), {"num_classes": 2}), (ti(3, fill=2), {}),
                 (ti(3, fill=-1), {"num_classes": 3}), (tb(3), {"num_classes": 2})]:
        tags = ["data-dependent"] if x.fill is not None or "num_classes" not in k else []
        if k and len(k) == 1 and x.shape == (3,):
            add(F + "one_hot", [x, k["num_classes"]], {}, tags)
        else:
            add(F + "one_hot", [x], k, tags)


def gen_nn_misc():
    rng = random.Random(SEED + 7)
    # Linear / Bilinear
    for ia, ik, x in [([3, 4], {}, t(2, 3)), ([3, 4], {}, t(3)), ([3, 4], {}, t(5, 2, 3)), ([3, 4], {}, t(2, 4)),
                      ([3, 4], {}, t()), ([3, 4], {}, t(0, 3)), ([3, 4], {"bias": False}, t(2, 3)), ([0, 4], {}, t(2, 0)),
                      ([3, 0], {}, t(2, 3)), ([3, 4], {}, ti(2, 3)), ([-1, 4], {}, t(2, 3)), ([3, 4], {}, t(1, 2, 3, 4, 3)),
                      ([], {"in_features": 3, "out_features": 4}, t(2, 3)), ([3], {}, t(2, 3)), ([3, 4], {}, t(3, 2)),
                      ([512, 10], {}, t(2, 512)), ([512, 10], {}, t(2, 256)), ([784, 128], {}, t(2, 28, 28)),
                      ([784, 128], {}, t(2, 784)), ([16, 16], {}, t(2, 7, 16)), ([3.0, 4], {}, t(2, 3))]:
        mod("torch.nn.Linear", ia, ik, [x], tags=["module"])
    for _ in range(40):
        fin = rng.choice([1, 3, 8, 16])
        fout = rng.choice([1, 4, 10])
        lead = rng.choice([[], [2], [2, 5], [0], [3, 1, 2]])
        last = fin if rng.random() < 0.8 else rng.choice([1, 3, 8, 16])
        mod("torch.nn.Linear", [fin, fout], {}, [T(tuple(lead + [last]))], tags=["module"])
    for ia, ik, a in [([3, 4, 5], {}, [t(2, 3), t(2, 4)]), ([3, 4, 5], {}, [t(2, 4), t(2, 3)]), ([3, 4, 5], {}, [t(3), t(4)]),
                      ([3, 4, 5], {}, [t(6, 2, 3), t(6, 2, 4)]), ([3, 4, 5], {}, [t(2, 3), t(3, 4)]),
                      ([3, 4, 5], {"bias": False}, [t(2, 3), t(2, 4)]), ([3, 4, 5], {}, [t(2, 3)]),
                      ([3, 3, 1], {}, [t(0, 3), t(0, 3)]), ([3, 4, 5], {}, [t(2, 3), t(1, 4)]), ([3, 4, 5], {}, [t(), t()])]:
        mod("torch.nn.Bilinear", ia, ik, a, tags=["module"])
    # dropout family (training mode; shape-preserving)
    for name in ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]:
        for s in [(2, 3), (2, 3, 4), (2, 3, 4, 5), (2, 3, 4, 5, 6), (), (0, 3)]:
            mod("torch.nn." + name, [], {}, [T(s)], tags=["module"])
        mod("torch.nn." + name, [0.0], {}, [t(4, 4)])
        mod("torch.nn." + name, [1.5], {}, [t(4, 4)])
    for fn in ["dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout"]:
        for s in [(2, 3), (2, 3, 4), (2, 3, 4, 5), (2, 3, 4, 5, 6)]:
            add(F + fn, [T(s)], {"p": 0.5, "training": True})
        add(F + fn, [t(2, 3, 4)], {"p": -0.1})
    # activations as modules
    for name, ia in [("ReLU", []), ("GELU", []), ("SiLU", []), ("Tanh", []), ("Sigmoid", []), ("LeakyReLU", [0.1]),
                     ("ELU", []), ("Mish", []), ("Hardswish", []), ("ReLU6", []), ("PReLU", []), ("Softplus", []),
                     ("Softmax", [1]), ("Softmax", [-1]), ("Softmax", []), ("Softmax", [3]), ("LogSoftmax", [1]),
                     ("LogSoftmax", [-1]), ("LogSoftmax", []), ("Softmin", [0]), ("PReLU", [3]), ("GLU", []), ("GLU", [1]),
                     ("Threshold", [0.1, 0.0]), ("Hardtanh", [])]:
        for s in [(2, 3), (), (2, 3, 4, 5, 6), (0, 4), (3,), (4, 1, 6), (1,), (3, 0, 2)]:
            mod("torch.nn." + name, ia, {}, [T(s)], tags=["module"])
    mod("torch.nn.ReLU", [], {"inplace": True}, [t(2, 3)])
    mod("torch.nn.GELU", [], {"approximate": "tanh"}, [t(2, 3)])
    mod("torch.nn.GELU", ["bogus"], {}, [t(2, 3)])
    mod("torch.nn.ReLU", [], {}, [t(2, 3), t(2, 3)])
    mod("torch.nn.Softmax", [], {"dim": 1}, [t(2, 3)])
    mod("torch.nn.Threshold", [], {}, [t(2, 3)])
    # Flatten / Unflatten / Identity
    for ia, x in [([], (2, 3, 4)), ([], (2, 3, 4, 5)), ([], (5,)), ([], ()), ([0], (2, 3, 4)), ([0, -1], (2, 3, 4)),
                  ([2, 3], (2, 3, 4, 5)), ([1, 2], (2, 3)), ([3, 1], (2, 3, 4, 5)), ([-2, -1], (2, 3, 4)), ([], (0, 3, 4)),
                  ([1], (1, 2, 3, 4, 5)), ([4, 4], (2, 3, 4, 5, 6)), ([5], (2, 3, 4, 5, 6))]:
        mod("torch.nn.Flatten", ia, {}, [T(x)], tags=["module"])
    mod("torch.nn.Flatten", [], {"start_dim": 0, "end_dim": 1}, [t(2, 3, 4)])
    for ia, x in [([1, (2, 5)], (3, 10)), ([1, (2, 5)], (3, 11)), ([1, (-1, 5)], (3, 10)), ([-1, (2, 2)], (3, 4)),
                  ([0, (1, 3)], (3, 4)), ([2, (2, 2)], (3, 4)), ([1, [2, 5]], (3, 10)), ([1, torch.Size([2, 5])], (3, 10)),
                  ([1, (2, 5)], (3, 10, 2)), ([1, (-1, -1)], (3, 10)), ([0, (2, 0)], (0, 4)), ([1, (2, 5)], (10,))]:
        mod("torch.nn.Unflatten", ia, {}, [T(x)], tags=["module"])
    mod("torch.nn.Unflatten", [], {"dim": 1, "unflattened_size": (2, 2)}, [t(2, 4)])
    for ia, ik, a in [([], {}, [t(2, 3)]), ([], {}, [t()]), ([5], {"foo": 1}, [t(2, 3)]), ([], {}, [t(0, 1, 2, 3, 4)]),
                      ([], {}, [ti(3)]), ([], {}, [tb(3, 3)]), ([], {}, []), ([], {}, [t(2), t(2)])]:
        mod("torch.nn.Identity", ia, ik, a, tags=["module"])
    # Upsample / interpolate
    ups = []
    for mode in ["nearest", "linear", "bilinear", "bicubic", "trilinear", "nearest-exact", "area"]:
        for rank in (2, 3, 4, 5):
            sp = (2, 3, 4)[: rank - 2]
            for sk in [{"scale_factor": 2}, {"size": 6}, {"scale_factor": 1.5}, {"size": tuple(5 for _ in sp) or 5},
                       {"scale_factor": tuple(2.0 for _ in sp) or 2.0}, {"size": (3, 4)}]:
                ups.append((mode, (2, 3) + sp, sk))
    rng.shuffle(ups)
    for i, (mode, shp, sk) in enumerate(ups):
        if i % 2 == 0:
            mod("torch.nn.Upsample", [], dict(sk, mode=mode), [T(shp)], tags=["module"])
        else:
            add(F + "interpolate", [T(shp)], dict(sk, mode=mode), ["functional"])
    for k in [{"size": 4, "scale_factor": 2}, {}, {"scale_factor": 2, "mode": "nearest", "align_corners": True},
              {"scale_factor": 2, "mode": "bilinear", "align_corners": True}, {"scale_factor": 0.5},
              {"scale_factor": 2, "mode": "bogus"}, {"size": 0}, {"size": (4, 4, 4)}, {"scale_factor": 0.1},
              {"size": (6, 6), "mode": "bilinear", "antialias": True}, {"scale_factor": 2, "recompute_scale_factor": True}]:
        add(F + "interpolate", [t(1, 3, 4, 4)], k)
        mod("torch.nn.Upsample", [], k, [t(1, 3, 4, 4)])
    mod("torch.nn.Upsample", [8], {}, [t(1, 3, 4, 4)])
    mod("torch.nn.Upsample", [None, 2], {}, [t(1, 3, 4, 4)])
    mod("torch.nn.UpsamplingNearest2d", [], {"scale_factor": 2}, [t(1, 3, 4, 4)])
    mod("torch.nn.UpsamplingBilinear2d", [], {"size": (7, 9)}, [t(1, 3, 4, 4)])
    mod("torch.nn.UpsamplingBilinear2d", [], {"size": (7, 9)}, [t(1, 3, 4)])
    add(F + "upsample", [t(1, 3, 4, 4)], {"scale_factor": 2})
    # PixelShuffle / PixelUnshuffle
    for r, s in [(2, (1, 8, 3, 3)), (2, (1, 6, 3, 3)), (3, (2, 9, 2, 2)), (2, (8, 3, 3)), (2, (8, 3)), (1, (1, 3, 3, 3)),
                 (2, (2, 2, 4, 3, 3)), (2, (0, 4, 3, 3)), (0, (1, 4, 3, 3)), (2, (1, 0, 3, 3)), (-1, (1, 4, 3, 3))]:
        mod("torch.nn.PixelShuffle", [r], {}, [T(s)], tags=["module"])
        add(F + "pixel_shuffle", [T(s), r], {}, ["functional"])
    for r, s in [(2, (1, 2, 4, 4)), (2, (1, 2, 5, 4)), (2, (1, 2, 4, 5)), (3, (1, 1, 6, 9)), (2, (2, 4, 4)), (2, (4, 4)),
                 (1, (1, 3, 3, 3)), (2, (2, 2, 1, 4, 4)), (0, (1, 1, 4, 4)), (2, (0, 1, 4, 4))]:
        mod("torch.nn.PixelUnshuffle", [r], {}, [T(s)], tags=["module"])
        add(F + "pixel_unshuffle", [T(s), r], {}, ["functional"])
    # pad
    for s, p, k in [((2, 3), (1, 1), {}), ((2, 3), (1, 1, 2, 2), {}), ((2, 3), (1, 1, 2, 2, 3, 3), {}), ((2, 3), (1,), {}),
                    ((2, 3), (1, 2, 3), {}), ((2, 3), (-1, -1), {}), ((2, 3), (-2, -2), {}), ((2, 3), (0, 0), {}),
                    ((2, 3), (), {}), ((2, 3, 4), (1, 1), {"mode": "reflect"}), ((2, 3, 4), (4, 4), {"mode": "reflect"}),
                    ((2, 3, 4), (3, 3), {"mode": "reflect"}), ((2, 3, 4), (2, 2), {"mode": "replicate"}),
                    ((2, 3, 4), (5, 5), {"mode": "replicate"}), ((2, 3, 4), (1, 1), {"mode": "circular"}),
                    ((2, 3, 4), (5, 5), {"mode": "circular"}), ((2, 3, 4, 4), (1, 1, 1, 1), {"mode": "reflect"}),
                    ((2, 3, 4, 4), (1, 1), {"mode": "reflect"}), ((2, 3, 4, 4), (1, 1, 1, 1, 1, 1), {"mode": "reflect"}),
                    ((4,), (1, 1), {"mode": "reflect"}), ((2, 3), (1, 1), {"mode": "replicate"}),
                    ((2, 3, 4, 4, 4), (1,) * 6, {"mode": "replicate"}), ((2, 3, 4), (1, 1), {"mode": "bogus"}),
                    ((2, 3, 4), (1, 1), {"value": 1.0}), ((2, 3, 4), (1, 1), {"mode": "constant", "value": -1.0}),
                    ((2, 3, 4), (1, -1), {"mode": "reflect"}), ((), (1, 1), {}), ((0, 3), (1, 1), {}), ((0, 3), (0, 0, 1, 1), {}),
                    ((2, 3, 4, 5, 6), (1,) * 10, {}), ((2, 3, 4, 5, 6), (1,) * 12, {}), ((2, 3), [1, 1], {}),
                    ((2, 3), (-4, 0), {}), ((2, 3), (1.5, 1), {}), ((2, 3, 4), (0, 0, -1, 2), {}),
                    ((3, 4, 4), (1, 1, 1, 1), {"mode": "reflect"}), ((1, 2, 3), (2, 3), {"mode": "reflect"})]:
        add(F + "pad", [T(s), p], k, ["negative-pad"] if any(v < 0 for v in p) else [])
    add(F + "pad", [t(2, 3)], {"pad": (1, 1)})
    add(F + "pad", [t(2, 3), (1, 1), "constant", 0.0])
    for name, ia, s in [("ZeroPad2d", [1], (1, 2, 3, 3)), ("ZeroPad2d", [(1, 2, 0, 1)], (1, 2, 3, 3)), ("ZeroPad2d", [1], (3, 3)),
                        ("ReflectionPad2d", [2], (1, 2, 3, 3)), ("ReflectionPad2d", [3], (1, 2, 3, 3)), ("ReflectionPad1d", [1], (2, 4)),
                        ("ReplicationPad2d", [2], (1, 2, 3, 3)), ("ReplicationPad1d", [(1, 2)], (1, 2, 3)),
                        ("ConstantPad1d", [2, 3.5], (1, 2, 4)), ("ConstantPad2d", [(1, 1, 2, 0), 0.0], (2, 3)),
                        ("ConstantPad3d", [1, 0.0], (1, 1, 2, 2, 2)), ("ReflectionPad3d", [1], (1, 1, 2, 2, 2)),
                        ("CircularPad1d", [1], (1, 2, 3)), ("ZeroPad1d", [-1], (1, 2, 3)), ("ZeroPad2d", [(1, 1, 1)], (1, 2, 3, 3))]:
        mod("torch.nn." + name, ia, {}, [T(s)], tags=["module"])
    # Sequential
    L = "torch.nn.Linear"
    for members, x in [
        ([M(L, 4, 8), M("torch.nn.ReLU"), M(L, 8, 2)], t(3, 4)),
        ([M(L, 4, 8), M("torch.nn.ReLU"), M(L, 8, 2)], t(3, 5)),
        ([M(L, 4, 8), M("torch.nn.ReLU"), M(L, 7, 2)], t(3, 4)),
        ([M("torch.nn.Conv2d", 3, 8, 3, padding=1), M("torch.nn.BatchNorm2d", 8), M("torch.nn.ReLU"),
          M("torch.nn.MaxPool2d", 2), M("torch.nn.Flatten"), M(L, 8 * 4 * 4, 10)], t(2, 3, 8, 8)),
        ([M("torch.nn.Conv2d", 3, 8, 3, padding=1), M("torch.nn.BatchNorm2d", 8), M("torch.nn.ReLU"),
          M("torch.nn.MaxPool2d", 2), M("torch.nn.Flatten"), M(L, 8 * 4 * 4, 10)], t(2, 3, 10, 10)),
        ([M("torch.nn.Conv2d", 1, 4, 3), M("torch.nn.AdaptiveAvgPool2d", 1), M("torch.nn.Flatten"), M(L, 4, 2)], t(2, 1, 9, 9)),
        ([M("torch.nn.Conv2d", 1, 4, 3), M("torch.nn.AdaptiveAvgPool2d", 1), M(L, 4, 2)], t(2, 1, 9, 9)),
        ([M("torch.nn.Embedding", 10, 6), M("torch.nn.LayerNorm", 6), M(L, 6, 3)], ti(2, 5)),
        ([M("torch.nn.Embedding", 10, 6), M("torch.nn.LayerNorm", 5)], ti(2, 5)),
        ([], t(2, 3)),
        ([M("torch.nn.Flatten"), M(L, 12, 1), M("torch.nn.Sigmoid")], t(2, 3, 4)),
        ([M("torch.nn.Conv1d", 4, 4, 3), M("torch.nn.Conv1d", 4, 4, 3), M("torch.nn.Conv1d", 4, 4, 3)], t(1, 4, 6)),
        ([M("torch.nn.Conv1d", 4, 4, 3), M("torch.nn.Conv1d", 4, 4, 3), M("torch.nn.Conv1d", 4, 4, 3)], t(1, 4, 5)),
        ([M("torch.nn.Unflatten", 1, (2, 4)), M("torch.nn.Flatten")], t(3, 8)),
        ([M(L, 4, 4), M("torch.nn.Dropout", 0.1), M(L, 4, 4), M("torch.nn.GELU")], t(4)),
        ([M("torch.nn.ConvTranspose2d", 8, 4, 2, stride=2), M("torch.nn.Conv2d", 4, 1, 1)], t(1, 8, 5, 5)),
        ([M("torch.nn.ConvTranspose2d", 8, 4, 2, stride=2), M("torch.nn.Conv2d", 8, 1, 1)], t(1, 8, 5, 5)),
        ([M("torch.nn.Conv2d", 3, 16, 3, stride=2), M("torch.nn.Conv2d", 16, 32, 3, stride=2), M("torch.nn.Flatten"),
          M(L, 32, 10)], t(1, 3, 7, 7)),
        ([M("torch.nn.Conv2d", 3, 16, 3, stride=2), M("torch.nn.Conv2d", 16, 32, 3, stride=2), M("torch.nn.Flatten"),
          M(L, 32, 10)], t(1, 3, 8, 8)),
        ([M("torch.nn.Conv2d", 3, 16, 3, stride=2), M("torch.nn.Conv2d", 16, 32, 3, stride=2)], t(1, 3, 4, 4)),
    ]:
        mod("torch.nn.Sequential", members, {}, [x], tags=["module", "stack"])
    mod("torch.nn.Sequential", [M(L, 4, 4)], {}, [t(2, 4), t(2, 4)], tags=["module", "stack"])
    mod("torch.nn.Sequential", [4], {}, [t(2, 4)], tags=["module", "stack"])
    # distance / similarity / normalize
    for a, b, k in [((2, 3), (2, 3), {}), ((2, 3), (2, 3), {"dim": 0}), ((2, 3), (3,), {}), ((2, 3), (1, 3), {}),
                    ((2, 3), (2, 4), {}), ((3,), (3,), {"dim": 0}), ((3,), (3,), {}), ((2, 3, 4), (2, 3, 4), {"dim": -1}),
                    ((2, 3, 4), (1, 3, 1), {"dim": 1}), ((2, 3), (2, 3), {"dim": 2}), ((0, 3), (0, 3), {}), ((), (), {}),
                    ((2, 1, 4), (1, 5, 4), {"dim": -1}), ((2, 3), (2, 3), {"dim": 1, "eps": 1e-6}), ((4, 3), (2, 3), {})]:
        add(F + "cosine_similarity", [T(a), T(b)], k, ["broadcast"] if a != b else [])
    add(F + "cosine_similarity", [t(2, 3), t(2, 3), 0])
    mod("torch.nn.CosineSimilarity", [], {"dim": 1}, [t(2, 3), t(2, 3)])
    mod("torch.nn.CosineSimilarity", [], {}, [t(2, 3), t(4, 3)])
    for a, b, k in [((2, 3), (2, 3), {}), ((2, 3), (1, 3), {}), ((2, 3), (2, 4), {}), ((3,), (3,), {}), ((2, 3), (2, 3), {"p": 1.0})]:
        add(F + "pairwise_distance", [T(a), T(b)], k)
    for a, b in [((2, 3), (4, 3)), ((5, 2, 3), (5, 4, 3)), ((2, 3), (4, 2)), ((3,), (3,))]:
        add("torch.cdist", [T(a), T(b)])
    for s, k in [((2, 3), {}), ((2, 3), {"dim": 0}), ((2, 3), {"dim": -1}), ((2, 3), {"dim": 2}), ((3,), {}), ((), {}),
                 ((2, 3, 4), {"dim": (1, 2)}), ((0, 3), {}), ((2, 3), {"p": 1.0, "dim": 1}), ((1, 2, 3, 4, 5), {"dim": 4}),
                 ((3,), {"dim": 0}), ((2, 3), {"dim": -3})]:
        add(F + "normalize", [T(s)], k)
    add(F + "normalize", [ti(2, 3)])


def gen_nn_rnn():
    rng = random.Random(SEED + 8)
    for name, n in [("RNN", 70), ("LSTM", 90), ("GRU", 60)]:
        op = "torch.nn." + name
        for _ in range(n):
            isz = rng.choice([3, 4, 8])
            hsz = rng.choice([2, 5, 6])
            kw = {}
            nl = rng.choice([1, 1, 2, 3])
            if nl != 1:
                kw["num_layers"] = nl
            bf = rng.random() < 0.4
            if bf:
                kw["batch_first"] = True
            bi = rng.random() < 0.35
            if bi:
                kw["bidirectional"] = True
            proj = 0
            if name == "LSTM" and rng.random() < 0.2:
                proj = rng.choice([1, 3, 6])
                kw["proj_size"] = proj
            if name == "RNN" and rng.random() < 0.1:
                kw["nonlinearity"] = rng.choice(["relu", "bogus"])
            if rng.random() < 0.05:
                kw["dropout"] = 0.5
            L, B = rng.choice([1, 4, 7]), rng.choice([1, 2, 3])
            feat = isz if rng.random() < 0.88 else isz + 1
            form = rng.random()
            if form < 0.75:
                x = (B, L, feat) if bf else (L, B, feat)
                unb = False
            elif form < 0.93:
                x = (L, feat)
                unb = True
            else:
                x = rng.choice([(B, L, 2, feat), (feat,), (L, B, 0)])
                unb = len(x) == 2
            args = [T(x)]
            if rng.random() < 0.35:
                D = 2 if bi else 1
                hout = proj if proj else hsz
                hshape = [D * nl, hout] if unb else [D * nl, B, hout]
                if rng.random() < 0.25:
                    j = rng.randrange(len(hshape))
                    hshape[j] += 1
                h = T(tuple(hshape))
                if name == "LSTM":
                    cshape = [D * nl, hsz] if unb else [D * nl, B, hsz]
                    args.append((h, T(tuple(cshape))))
                else:
                    args.append(h)
            tags = ["module"] + (["unbatched"] if unb else []) + (["h0"] if len(args) > 1 else [])
            if rng.random() < 0.2:
                mod(op, [], dict(kw, input_size=isz, hidden_size=hsz), args, tags=tags)
            else:
                mod(op, [isz, hsz], kw, args, tags=tags)
    mod("torch.nn.LSTM", [4, 8], {"proj_size": 8}, [t(3, 2, 4)])
    mod("torch.nn.LSTM", [4, 8], {"proj_size": -1}, [t(3, 2, 4)])
    mod("torch.nn.LSTM", [4, 8], {}, [t(3, 2, 4), t(1, 2, 8)])
    mod("torch.nn.LSTM", [4, 8], {}, [t(3, 2, 4), (t(1, 2, 8),)])
    mod("torch.nn.GRU", [4, 8], {}, [t(3, 2, 4), (t(1, 2, 8), t(1, 2, 8))])
    mod("torch.nn.RNN", [4, 0], {}, [t(3, 2, 4)])
    mod("torch.nn.RNN", [4, 8, 0], {}, [t(3, 2, 4)])
    mod("torch.nn.LSTM", [4, 8], {}, [ti(3, 2, 4)])
    mod("torch.nn.GRU", [4, 8], {}, [t(0, 2, 4)])
    mod("torch.nn.GRU", [4, 8], {}, [t(3, 0, 4)])
    for name in ["RNNCell", "LSTMCell", "GRUCell"]:
        for a in [[t(2, 4)], [t(4)], [t(2, 5)], [t(2, 4), t(2, 8)], [t(2, 4), t(3, 8)], [t(3, 2, 4)]]:
            if name == "LSTMCell" and len(a) == 2:
                a = [a[0], (a[1], a[1])]
            mod("torch.nn." + name, [4, 8], {}, a, tags=["module"])


def gen_nn_attention():
    rng = random.Random(SEED + 9)
    MHA = "torch.nn.MultiheadAttention"
    for _ in range(70):
        E = rng.choice([4, 6, 8])
        H = rng.choice([1, 2, 3, 4])
        kw = {}
        bf = rng.random() < 0.4
        if bf:
            kw["batch_first"] = True
        kd = vd = None
        if rng.random() < 0.25:
            kd = rng.choice([3, 5])
            kw["kdim"] = kd
        if rng.random() < 0.25:
            vd = rng.choice([2, 5])
            kw["vdim"] = vd
        Lq, S, N = rng.choice([1, 3]), rng.choice([2, 4]), rng.choice([1, 2])
        unb = rng.random() < 0.15
        kdim, vdim = kd or E, vd or E
        if rng.random() < 0.1:
            kdim += 1

        def mk(L, d):
            if unb:
                return T((L, d))
            return T((N, L, d) if bf else (L, N, d))
        Sv = S if rng.random() < 0.9 else S + 1
        args = [mk(Lq, E), mk(S, kdim), mk(Sv, vdim)]
        k = {}
        r = rng.random()
        if r < 0.15:
            k["need_weights"] = False
        elif r < 0.3:
            k["average_attn_weights"] = False
        if rng.random() < 0.15:
            k["key_padding_mask"] = tb(*((S,) if unb else (N, S)))
        if rng.random() < 0.15:
            k["attn_mask"] = rng.choice([tb(Lq, S), t(Lq, S), tb(N * H, Lq, S), tb(Lq, S + 1)])
        mod(MHA, [E, H], kw, args, k, tags=["module"] + (["unbatched"] if unb else []))
    mod(MHA, [6, 4], {}, [t(3, 2, 6), t(3, 2, 6), t(3, 2, 6)], tags=["non-divisible-heads"])
    mod(MHA, [10, 3], {"batch_first": True}, [t(2, 3, 10), t(2, 3, 10), t(2, 3, 10)], tags=["non-divisible-heads"])
    mod(MHA, [8, 0], {}, [t(3, 2, 8), t(3, 2, 8), t(3, 2, 8)])
    mod(MHA, [8, 2], {}, [t(3, 2, 8), t(3, 2, 8)])
    mod(MHA, [8, 2], {}, [t(3, 2, 8), t(5, 2, 8), t(4, 2, 8)])
    mod(MHA, [8, 2], {}, [t(3, 2, 8), t(5, 3, 8), t(5, 3, 8)])
    mod(MHA, [8, 2], {"batch_first": True}, [t(2, 3, 8), t(2, 5, 8), t(2, 5, 8)], {"need_weights": False})
    mod(MHA, [8, 2], {}, [t(3, 2, 8), t(5, 2, 8), t(5, 2, 8)], {"attn_mask": t(3, 5), "is_causal": False})
    mod(MHA, [8, 2], {}, [t(3, 2, 8), t(3, 2, 8), t(3, 2, 8)], {"attn_mask": tb(3, 3), "is_causal": True})
    mod(MHA, [8, 2], {"dropout": 0.1, "bias": False, "add_bias_kv": True}, [t(3, 2, 8), t(5, 2, 8), t(5, 2, 8)])
    mod(MHA, [8, 2], {"add_zero_attn": True}, [t(3, 2, 8), t(5, 2, 8), t(5, 2, 8)])
    mod(MHA, [], {"embed_dim": 8, "num_heads": 2}, [t(3, 2, 8), t(5, 2, 8), t(5, 2, 8)])
    # scaled_dot_product_attention
    sdpa = F + "scaled_dot_product_attention"
    for q, k_, v, kw in [((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8), {}), ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 3), {}),
                         ((5, 8), (6, 8), (6, 8), {}), ((3, 5, 8), (3, 6, 8), (3, 6, 8), {}), ((2, 4, 5, 8), (2, 4, 6, 7), (2, 4, 6, 8), {}),
                         ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 7, 8), {}), ((2, 4, 5, 8), (2, 1, 6, 8), (2, 1, 6, 8), {}),
                         ((2, 4, 5, 8), (1, 4, 6, 8), (1, 4, 6, 8), {}), ((2, 4, 5, 8), (6, 8), (6, 8), {}),
                         ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8), {"attn_mask": tb(5, 6)}),
                         ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8), {"attn_mask": t(2, 1, 5, 6)}),
                         ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8), {"attn_mask": tb(5, 7)}),
                         ((2, 4, 5, 8), (2, 4, 5, 8), (2, 4, 5, 8), {"is_causal": True}),
                         ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8), {"is_causal": True}),
                         ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8), {"is_causal": True, "attn_mask": tb(5, 6)}),
                         ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8), {"scale": 0.5}), ((8,), (8,), (8,), {}),
                         ((2, 4, 0, 8), (2, 4, 6, 8), (2, 4, 6, 8), {}), ((2, 4, 5, 8), (2, 4, 0, 8), (2, 4, 0, 8), {}),
                         ((1, 2, 4, 5, 8), (1, 2, 4, 6, 8), (1, 2, 4, 6, 8), {}), ((2, 4, 5, 8), (2, 2, 6, 8), (2, 2, 6, 8), {}),
                         ((2, 4, 5, 8), (2, 2, 6, 8), (2, 2, 6, 8), {"enable_gqa": True}),
                         ((2, 4, 5, 8), (2, 3, 6, 8), (2, 3, 6, 8), {"enable_gqa": True}), ((2, 4, 5, 8), (2, 4, 6, 8), (2, 4, 6, 8),
                                                                                            {"dropout_p": 0.2})]:
        add(sdpa, [T(q), T(k_), T(v)], kw)
    add(sdpa, [t(2, 4, 5, 8), t(2, 4, 6, 8), t(2, 4, 6, 8), None, 0.0, False])
    add(sdpa, [ti(2, 4, 5, 8), t(2, 4, 6, 8), t(2, 4, 6, 8)])
    add(sdpa, [t(2, 4, 5, 8), t(2, 4, 6, 8)])
    # Transformer layers
    for _ in range(40):
        d = rng.choice([4, 8, 12])
        h = rng.choice([1, 2, 4, 3])
        kw = {"dim_feedforward": rng.choice([8, 16])}
        bf = rng.random() < 0.5
        if bf:
            kw["batch_first"] = True
        if rng.random() < 0.2:
            kw["norm_first"] = True
        if rng.random() < 0.2:
            kw["activation"] = rng.choice(["gelu", "relu"])
        S, N = rng.choice([1, 3, 5]), rng.choice([1, 2])
        feat = d if rng.random() < 0.85 else d + 2
        r = rng.random()
        x = T((S, feat)) if r < 0.15 else T((N, S, feat) if bf else (S, N, feat))
        k = {}
        if rng.random() < 0.2:
            k["src_mask"] = rng.choice([tb(S, S), t(S, S), tb(S, S + 1)])
        if rng.random() < 0.15:
            k["src_key_padding_mask"] = tb(N, S) if len(x.shape) == 3 else tb(S)
        mod("torch.nn.TransformerEncoderLayer", [d, h], kw, [x], k, tags=["module"])
    for _ in range(30):
        d = rng.choice([4, 8])
        h = rng.choice([1, 2, 3])
        kw = {"dim_feedforward": 8}
        bf = rng.random() < 0.5
        if bf:
            kw["batch_first"] = True
        T_, S, N = rng.choice([1, 3]), rng.choice([2, 4]), rng.choice([1, 2])
        mf = d if rng.random() < 0.85 else d + 1
        N2 = N if rng.random() < 0.9 else N + 1
        tgt = T((N, T_, d) if bf else (T_, N, d))
        mem = T((N2, S, mf) if bf else (S, N2, mf))
        k = {}
        if rng.random() < 0.25:
            k["tgt_mask"] = rng.choice([tb(T_, T_), t(T_, T_), tb(T_, S)])
        if rng.random() < 0.1:
            k["tgt_is_causal"] = True
        mod("torch.nn.TransformerDecoderLayer", [d, h], kw, [tgt, mem], k, tags=["module"])
    mod("torch.nn.TransformerEncoderLayer", [], {"d_model": 8, "nhead": 3}, [t(3, 2, 8)], tags=["non-divisible-heads"])
    mod("torch.nn.TransformerEncoderLayer", [8, 2], {}, [t(3, 2, 8)], tags=["default-args"])
    mod("torch.nn.TransformerDecoderLayer", [8, 2], {}, [t(3, 2, 8)])
    mod("torch.nn.TransformerDecoderLayer", [8, 2], {}, [t(3, 8), t(4, 8)], tags=["unbatched"])
    mod("torch.nn.Transformer", [], {"d_model": 8, "nhead": 2, "num_encoder_layers": 1, "num_decoder_layers": 1,
                                     "dim_feedforward": 8}, [t(5, 2, 8), t(3, 2, 8)])
    mod("torch.nn.Transformer", [], {"d_model": 8, "nhead": 2, "num_encoder_layers": 1, "num_decoder_layers": 1,
                                     "dim_feedforward": 8}, [t(5, 2, 8), t(3, 3, 8)])
    mod("torch.nn.Transformer", [], {"d_model": 8, "nhead": 2, "num_encoder_layers": 1, "num_decoder_layers": 1,
                                     "dim_feedforward": 8, "batch_first": True}, [t(2, 5, 8), t(2, 3, 8)])
    SQ = "torch.nn.Transformer.generate_square_subsequent_mask"
    for n in [0, 1, 4, 7]:
        add(SQ, (n,))
    add(SQ, (3,), {"dtype": torch.float64})
    add(SQ, (-1,), tags=["negative"])


def gen_losses():
    CE = F + "cross_entropy"
    for x, y, k in [
        (t(4, 5), ti(4), {}), (t(4, 5), ti(4), {"reduction": "none"}), (t(4, 5), ti(4), {"reduction": "sum"}),
        (t(4, 5), ti(4), {"reduction": "mean"}), (t(4, 5), ti(5), {}), (t(4, 5), ti(4, 1), {}), (t(4, 5), ti(4, 5), {}),
        (t(4, 5), t(4, 5), {}), (t(4, 5), t(4, 5), {"reduction": "none"}), (t(4, 5), t(4, 6), {}), (t(4, 5), t(4), {}),
        (t(5), ti(), {}), (t(5), ti(), {"reduction": "none"}), (t(5), t(5), {}), (t(5), ti(1), {}),
        (t(4, 5, 6, 7), ti(4, 6, 7), {}), (t(4, 5, 6, 7), ti(4, 6, 7), {"reduction": "none"}), (t(4, 5, 6, 7), ti(4, 7, 6), {}),
        (t(4, 5, 6, 7), ti(4, 6), {}), (t(4, 5, 6, 7), t(4, 5, 6, 7), {"reduction": "none"}), (t(4, 5, 6), ti(4, 6), {"reduction": "none"}),
        (t(4, 5), ti(4), {"weight": t(5)}), (t(4, 5), ti(4), {"weight": t(4)}), (t(4, 5), ti(4), {"ignore_index": 0}),
        (t(4, 5), ti(4), {"label_smoothing": 0.1}), (t(4, 5), ti(4), {"label_smoothing": 1.5}),
        (t(4, 5), ti(4), {"reduction": "bogus"}), (t(0, 5), ti(0), {}), (t(0, 5), ti(0), {"reduction": "none"}),
        (t(4, 5), ti(4, fill=7), {}), (t(4, 5), ti(4, fill=-100), {}), (ti(4, 5), ti(4), {}), (t(4, 5), tb(4), {}),
        (t(), ti(), {}), (t(2, 3, 4, 5, 6), ti(2, 4, 5, 6), {"reduction": "none"}), (t(4, 5), ti(4, fill=5), {}),
        (t(3, 4, 5), ti(3, 5), {"reduction": "none"}), (t(4, 5), ti(4), {"size_average": False}),
    ]:
        tags = ["data-dependent"] if y.fill is not None and y.fill != -100 else []
        add(CE, [x, y], k, tags)
    mod("torch.nn.CrossEntropyLoss", [], {}, [t(4, 5), ti(4)])
    mod("torch.nn.CrossEntropyLoss", [], {"reduction": "none"}, [t(4, 5, 3), ti(4, 3)])
    mod("torch.nn.CrossEntropyLoss", [], {"weight": t(5)}, [t(4, 5), ti(4)])
    mod("torch.nn.CrossEntropyLoss", [], {"weight": t(3)}, [t(4, 5), ti(4)])
    mod("torch.nn.CrossEntropyLoss", [], {}, [t(4, 5), ti(5)])
    NLL = F + "nll_loss"
    for x, y, k in [(t(4, 5), ti(4), {}), (t(4, 5), ti(4), {"reduction": "none"}), (t(4, 5), ti(4), {"reduction": "sum"}),
                    (t(4, 5), ti(3), {}), (t(4, 5), t(4, 5), {}), (t(4, 5), t(4), {}), (t(5), ti(), {}), (t(5), ti(), {"reduction": "none"}),
                    (t(4, 5, 6), ti(4, 6), {"reduction": "none"}), (t(4, 5, 6, 7), ti(4, 6, 7), {}), (t(4, 5, 6), ti(4, 5), {}),
                    (t(4, 5), ti(4, fill=5), {}), (t(4, 5), ti(4), {"weight": t(5)}), (t(4, 5), ti(4), {"weight": t(6)}),
                    (t(0, 5), ti(0), {"reduction": "none"}), (t(4, 5), ti(4, 1), {}), (t(2, 3, 4, 5, 6), ti(2, 4, 5, 6), {}),
                    (t(4), ti(4), {})]:
        add(NLL, [x, y], k, ["data-dependent"] if y.fill is not None else [])
    mod("torch.nn.NLLLoss", [], {}, [t(4, 5), ti(4)])
    mod("torch.nn.NLLLoss", [], {"reduction": "none"}, [t(4, 5), ti(4)])
    # elementwise losses
    for fn in ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
               "binary_cross_entropy_with_logits", "kl_div", "soft_margin_loss", "poisson_nll_loss"]:
        pairs = [((4, 5), (4, 5), {}), ((4, 5), (4, 5), {"reduction": "none"}), ((4, 5), (4, 5), {"reduction": "sum"}),
                 ((4, 5), (5,), {}), ((4, 5), (4, 1), {"reduction": "none"}), ((4, 5), (5, 4), {}), ((4, 1), (4, 5), {}),
                 ((), (), {}), ((3,), (), {"reduction": "none"}), ((0, 5), (0, 5), {}), ((4, 5), (4, 5), {"reduction": "bogus"}),
                 ((2, 3, 4, 5, 6), (2, 3, 4, 5, 6), {"reduction": "none"}), ((4, 5), (3, 5), {})]
        if fn == "kl_div":
            pairs += [((4, 5), (4, 5), {"reduction": "batchmean"}), ((4, 5), (4, 5), {"log_target": True})]
        if fn == "binary_cross_entropy":
            pairs += [((4, 5), (4, 5), {"weight": t(5)}), ((4, 5), (4, 5), {"weight": t(4)})]
        if fn == "binary_cross_entropy_with_logits":
            pairs += [((4, 5), (4, 5), {"pos_weight": t(5)}), ((4, 5), (4, 5), {"pos_weight": t(4)}),
                      ((4, 5), (4, 5), {"weight": t(4, 1)})]
        for a, b, k in pairs:
            add(F + fn, [T(a), T(b)], k, ["broadcast"] if a != b else [])
        add(F + fn, [t(4, 5), ti(4, 5)])
    for name in ["MSELoss", "L1Loss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "SmoothL1Loss", "HuberLoss"]:
        for a, b, k in [((4, 5), (4, 5), {}), ((4, 5), (4, 5), {"reduction": "none"}), ((4, 5), (5,), {}),
                        ((4, 5), (3, 5), {}), ((4,), (4, 1), {"reduction": "none"})]:
            mod("torch.nn." + name, [], k, [T(a), T(b)], tags=["module"] + (["broadcast"] if a != b else []))
    for a, k in [([t(4, 5), t(4, 5), ti(4)], {}), ([t(4, 5), t(4, 5), t(4)], {}), ([t(4, 5), t(4, 5), t(4)], {"reduction": "none"}),
                 ([t(5), t(5), t()], {}), ([t(4, 5), t(3, 5), t(4)], {})]:
        add(F + "cosine_embedding_loss", a, k)
        add(F + "margin_ranking_loss", a, k)
    for a, k in [([t(4, 5), t(4, 5), t(4, 5)], {}), ([t(4, 5), t(4, 5), t(4, 5)], {"reduction": "none"}),
                 ([t(4, 5), t(4, 5), t(3, 5)], {}), ([t(5), t(5), t(5)], {"reduction": "none"})]:
        add(F + "triplet_margin_loss", a, k)
    add(F + "gaussian_nll_loss", [t(4, 5), t(4, 5), t(4, 5, fill=1.0)])
    add(F + "gaussian_nll_loss", [t(4, 5), t(4, 5), t(4, 1, fill=1.0)])
    add(F + "gaussian_nll_loss", [t(4, 5), t(4, 5), t(4, 2, fill=1.0)])
    add(F + "ctc_loss", [t(10, 2, 5), ti(2, 4, fill=1), ti(2, fill=10), ti(2, fill=4)])
    # One length per sequence, and no input length past the time steps.
    for il, tl in [(ti(3, fill=10), ti(2, fill=4)), (ti(2, fill=10), ti(3, fill=4)), (ti(2, fill=11), ti(2, fill=4)),
                   ((10, 10), (4, 4)), ((11, 10), (4, 4)), ((10, 10, 10), (4, 4))]:
        add(F + "ctc_loss", [t(10, 2, 5), ti(2, 4, fill=1), il, tl], {}, ["data-dependent"])
    add(F + "ctc_loss", [t(10, 5), ti(4, fill=1), ti(fill=10), ti(fill=4)])
    add(F + "multi_margin_loss", [t(4, 5), ti(4)])
    add(F + "multilabel_margin_loss", [t(4, 5), ti(4, 5)])


def gen_queries():
    S = torch.Size
    for s in [(), (3,), (2, 3), (2, 0, 4), (1, 2, 3, 4, 5), (7, 1), (0,), (1, 1, 1), (2, 3, 4, 5)]:
        x = T(s)
        add("torch.Tensor.shape", [x])
        add("torch.Tensor.size", [x], {}, ["default-args"])
        add("torch.Tensor.dim", [x])
        add("torch.Tensor.ndim", [x])
        add("torch.Tensor.numel", [x])
        add("torch.Tensor.ndimension", [x])
        add("torch.Tensor.nelement", [x])
        add("builtins.len", [x])
        add("torch.numel", [x])
        r = len(s)
        for d in sorted({0, 1, -1, r - 1, r, -r, -r - 1, 2}):
            add("torch.Tensor.size", [x, d])
        add("torch.Tensor.size", [x], {"dim": -1})
    add("torch.Tensor.size", [t(2, 3), "a"])
    add("torch.Tensor.size", [t(2, 3), 1.0])
    add("torch.Tensor.size", [t(2, 3), 0, 1])
    add("torch.Tensor.size", [t(2, 3), None])
    add("torch.Tensor.dim", [t(2, 3), 1])
    add("torch.Tensor.dtype", [t(2, 3)])
    add("torch.Tensor.dtype", [ti(2, 3)])
    for s in [(2, 3), (), (4,), (0, 5)]:
        add("torch.Tensor.is_contiguous", [T(s)])
        add("torch.Tensor.stride", [T(s)])
        add("torch.Tensor.element_size", [T(s)])
    add("torch.Tensor.stride", [t(2, 3), 0])
    add("torch.Tensor.stride", [t(2, 3), 2])
    add("torch.is_tensor", [t(2)])
    add("torch.is_floating_point", [ti(2)])
    add("torch.is_floating_point", [t(2)])
    # torch.Size arithmetic
    for a, b in [(S([2, 3]), S([4])), (S([]), S([5])), (S([2, 3]), (4, 5)), (S([2]), S([])), (S([2, 3]), [4]),
                 ((1,), S([2, 3])), (S([0]), S([1, 2, 3, 4]))]:
        add("operator.add", [a, b], {}, ["size-arith"])
    for a, b in [(S([2, 3]), 2), (S([2, 3]), 0), (S([]), 3), (S([2, 3]), S([2]))]:
        add("operator.mul", [a, b], {}, ["size-arith"])
    for a, b in [(S([2, 3]), S([2, 3])), (S([2, 3]), (2, 3)), (S([2, 3]), [2, 3]), (S([2, 3]), S([3, 2]))]:
        add("operator.eq", [a, b], {}, ["size-arith"])
        add("operator.ne", [a, b], {}, ["size-arith"])
    for s in [S([2, 3, 4]), S([]), S([5]), S([1, 2, 3, 4, 5])]:
        for i in [0, -1, 1, 3, -4, slice(1, None), slice(None, -1), slice(None, None, -1), slice(None, None, 2),
                  slice(5, 9), "a", (0, 1)]:
            add("operator.getitem", [s, i], {}, ["size-arith"])
        add("builtins.len", [s], {}, ["size-arith"])
        add("torch.Size.numel", [s], {}, ["size-arith"])
    add("operator.contains", [S([2, 3]), 3], {}, ["size-arith"])
    add("operator.getitem", [S([2, 3]), ti()], {}, ["size-arith"])
    # getitem on shape of a tensor result -> use x.shape then index is two steps; cover via size(i) above
    add("torch.Tensor.size", [ti(3, 4), -2])
    for s in [(2, 3), (4,), (1, 2, 3, 4, 5)]:
        add("torch.Tensor.shape", [ti(*s)])
        add("torch.Tensor.ndim", [tb(*s)])
        add("torch.Tensor.dim", [ti(*s)])
        add("torch.Tensor.numel", [tb(*s)])
    add("torch.Tensor.numel", [t(2, 3), 1])



# ------------------------------------------------------------------------------- more pointwise math

UNARY_XS = [t(2, 3), t(), t(0, 4), t(1, 2, 3, 4, 5), ti(3), tb(2, 2), t(7), t(4, 1)]


def gen_pointwise_more():
    for name in ["cos", "tan", "sinh", "cosh", "asin", "acos", "atan", "log1p", "log2", "log10", "expm1", "exp2",
                 "rsqrt", "reciprocal", "erf", "erfinv", "sinc", "lgamma", "digamma", "rad2deg", "deg2rad", "ceil",
                 "round", "trunc", "square", "absolute", "clone", "isnan", "isinf", "isfinite", "isposinf",
                 "isneginf", "signbit", "logical_not", "nan_to_num"]:
        for x in UNARY_XS:
            add("torch." + name, [x])
    for name in ["cos", "sin", "tan", "log", "log1p", "log2", "log10", "expm1", "rsqrt", "reciprocal", "erf", "atan",
                 "ceil", "floor", "round", "trunc", "square", "sign", "absolute", "isnan", "isinf", "isfinite",
                 "logical_not", "nan_to_num"]:
        for x in UNARY_XS[:6]:
            add("torch.Tensor." + name, [x])
    for name in ["neg_", "abs_", "floor_", "ceil_", "round_", "relu_", "exp_", "sqrt_", "sigmoid_", "tanh_"]:
        for x in [t(2, 3), t(), t(0, 4), ti(3), tb(2)]:
            add("torch.Tensor." + name, [x], {}, ["inplace"])
    add("torch.cos", [t(2, 3), t(2, 3)])
    # NumPy argument names accepted by PyTorch's parser (axis for dim, keepdims for keepdim)
    add("torch.repeat_interleave", [t(2, 3), 2], {"axis": 1})
    add("torch.repeat_interleave", [t(2, 1, 3), 3], {"axis": -2})
    add("torch.sum", [t(2, 3, 4)], {"axis": 1})
    add("torch.sum", [t(2, 3, 4)], {"axis": 1, "keepdims": True})
    add("torch.mean", [t(2, 3)], {"axis": -1, "keepdims": True})
    add("torch.Tensor.sum", [t(2, 3)], {"axis": 0})
    add("torch.cat", [[t(2, 3), t(2, 3)]], {"axis": 1})
    add("torch.arange", [1, 5], {"out": t(4)})
    add("torch.round", [t(2, 3)], {"decimals": 2})
    add("torch.clone", [t(2, 3)], {"memory_format": torch.contiguous_format})
    add("torch.isnan", [3.0])
    add("torch.nan_to_num", [t(2, 3), 0.0, 1.0, -1.0])
    add("torch.nan_to_num", [t(2, 3)], {"nan": 0.0, "posinf": 1e4})
    add("torch.nan_to_num", [t(2, 3), "a"])
    add("torch.Tensor.nan_to_num_", [t(2, 3)], {"nan": 0.0}, ["inplace"])
    for x, k in [(t(2, 3), {"min": 0.0}), (t(2, 3), {"min": t(3)}), (t(2, 3), {"min": t(2, 1), "max": t(3)}),
                 (t(3), {"min": t(2, 3)}), (t(2, 3), {}), (t(0, 3), {"max": 1.0}), (ti(2, 3), {"min": 0.5})]:
        add("torch.Tensor.clamp_", [x], k, ["inplace"])
        add("torch.Tensor.clip", [x], k)
    # binary aliases and logical / bitwise functions
    for fn in ["torch.greater", "torch.greater_equal", "torch.less", "torch.less_equal", "torch.not_equal",
               "torch.Tensor.greater", "torch.fmin", "torch.fmax", "torch.Tensor.maximum", "torch.Tensor.minimum",
               "torch.Tensor.atan2", "torch.Tensor.remainder", "torch.logical_and", "torch.logical_or",
               "torch.logical_xor", "torch.Tensor.logical_and", "torch.Tensor.logical_or"]:
        for a, b in BIN_PAIRS[::2]:
            add(fn, [T(a), T(b)], {}, ["broadcast"] if a != b else [])
        add(fn, [t(2, 3), 2.0], {}, ["scalar-operand"])
        add(fn, [tb(2, 3), tb(3)], {}, ["broadcast"])
    for fn in ["torch.bitwise_and", "torch.bitwise_or", "torch.bitwise_xor"]:
        for a, b in [(tb(2, 3), tb(2, 3)), (ti(2, 3), ti(3)), (ti(2, 3), ti(2)), (ti(4), 1), (t(2), t(2)),
                     (tb(0, 3), tb(1)), (ti(2, 1), tb(1, 5))]:
            add(fn, [a, b])
    # addcmul / addcdiv / lerp
    for a, b, c in [((2, 3), (2, 3), (2, 3)), ((2, 3), (3,), (2, 1)), ((3,), (2, 3), (1,)), ((2, 3), (4, 3), (3,)),
                    ((), (2, 3), ()), ((0, 3), (1, 3), (3,)), ((2, 1, 4), (3, 1), (4,)), ((2, 3), (2, 3), (2,))]:
        for fn in ["torch.addcmul", "torch.addcdiv", "torch.Tensor.addcmul", "torch.Tensor.addcmul_",
                   "torch.Tensor.addcdiv_"]:
            add(fn, [T(a), T(b), T(c)], {}, ["broadcast"] if not (a == b == c) else [])
        for fn in ["torch.lerp", "torch.Tensor.lerp", "torch.Tensor.lerp_"]:
            add(fn, [T(a), T(b), T(c)], {}, ["broadcast"] if not (a == b == c) else [])
            add(fn, [T(a), T(b), 0.5], {}, ["broadcast"] if a != b else [])
    add("torch.addcmul", [t(2, 3), t(2, 3), t(2, 3)], {"value": 0.5})
    add("torch.addcdiv", [ti(2, 3), ti(2, 3), ti(2, 3)])
    add("torch.addcdiv", [t(2, 3), ti(2, 3), ti(2, 3)])
    add("torch.addcmul", [t(2, 3), t(2, 3)])
    add("torch.lerp", [t(2, 3), ti(2, 3), 0.5])
    add("torch.lerp", [t(2, 3), t(2, 3)])
    # activations
    for fn in ["logsigmoid", "hardtanh", "relu6", "hardswish", "hardsigmoid", "mish", "selu", "celu", "softsign",
               "tanhshrink", "softshrink", "hardshrink"]:
        for x in UNARY_XS:
            add(F + fn, [x])
    add(F + "hardtanh", [t(2, 3), -2.0, 2.0])
    add(F + "hardtanh", [t(2, 3)], {"min_val": 1.0, "max_val": 0.0})
    add(F + "hardtanh", [t(2, 3), 2.0])
    add(F + "celu", [t(2, 3)], {"alpha": 0.5})
    add(F + "softshrink", [t(2, 3), 0.1])
    for name in ["Hardsigmoid", "SELU", "CELU", "LogSigmoid", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink"]:
        for x in [t(2, 3), t(), t(2, 3, 4, 5, 6), t(0, 4), t(3)]:
            mod("torch.nn." + name, [], {}, [x], tags=["module"])
        mod("torch.nn." + name, [], {}, [t(2, 3), t(2, 3)])


# -------------------------------------------------------------------------- initialisers (in place)

def gen_init():
    xs = [t(4, 3), t(3), t(), t(0, 3), t(0, 0), t(2, 3, 4), t(8, 4, 3, 3), t(3, 0, 2), t(5, 1), ti(3, 3), t(0)]
    for name in ["constant_", "zeros_", "ones_", "normal_", "uniform_", "trunc_normal_", "xavier_uniform_",
                 "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "eye_"]:
        for x in xs:
            a = [x, 0.5] if name == "constant_" else [x]
            add("torch.nn.init." + name, a)
    add("torch.nn.init.constant_", [t(2, 3)])
    add("torch.nn.init.constant_", [t(2, 3)], {"val": 1.0})
    add("torch.nn.init.xavier_uniform_", [t(4, 3)], {"gain": 2.0})
    add("torch.nn.init.kaiming_normal_", [t(4, 3)], {"mode": "fan_out", "nonlinearity": "relu"})
    add("torch.nn.init.kaiming_normal_", [t(4, 3)], {"mode": "fan_sideways"})
    add("torch.nn.init.normal_", [t(4, 3)], {"mean": 0.0, "std": 0.02})
    add("torch.nn.init.trunc_normal_", [t(4, 3)], {"std": 0.02})
    for name in ["normal_", "uniform_", "zero_"]:
        for x in [t(2, 3), t(), t(0, 4), t(1, 2, 3, 4, 5)]:
            add("torch.Tensor." + name, [x], {}, ["inplace"])
    for x, v in [(t(2, 3), 1.0), (t(), 0), (t(2, 3), t()), (t(2, 3), t(1)), (t(0, 2), 1.5), (ti(2), 3)]:
        add("torch.Tensor.fill_", [x, v], {}, ["inplace"])
    add("torch.Tensor.fill_", [t(2, 3)])
    for a, b in [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), (2, 1)), ((2, 3), (2,)), ((3,), (2, 3)), ((), ()),
                 ((0, 3), (3,)), ((2, 3), ()), ((2, 3, 4), (3, 4)), ((2, 3), (4, 3))]:
        add("torch.Tensor.copy_", [T(a), T(b)], {}, ["inplace", "broadcast"] if a != b else ["inplace"])
    add("torch.Tensor.copy_", [t(2, 3), ti(2, 3)], {}, ["inplace"])


# --------------------------------------------------------------------------- creation and structure

def gen_structure():
    for a, k in [([t(2, 3)], {}), ([ti(3)], {}), ([[1, 2, 3]], {}), ([[[1.0, 2.0]]], {}), ([3], {}), ([t()], {}),
                 ([t(2, 3), torch.int64], {}), ([t(2, 3)], {"dtype": torch.int64}), ([[]], {}), ([[[1, 2], [3]]], {}),
                 ([t(0, 4)], {}), ([(1, 2)], {}), ([None], {}), (["a"], {})]:
        add("torch.as_tensor", a, k)
    for a, k in [([1.0], {}), ([3], {}), ([True], {}), ([1.0], {"dtype": torch.int64}), ([t()], {}), (["a"], {})]:
        add("torch.scalar_tensor", a, k)
    for a, k in [([5], {}), ([0], {}), ([1], {}), ([-1], {}), ([4], {"dtype": torch.float32}), ([2.5], {}), ([], {})]:
        add("torch.randperm", a, k)
    for fn in ["torch.tril", "torch.triu", "torch.Tensor.tril", "torch.Tensor.triu", "torch.Tensor.tril_",
               "torch.Tensor.triu_"]:
        for x in [t(3, 3), t(2, 4), t(3), t(), t(2, 3, 4), t(0, 3), tb(4, 4), t(1, 2, 3, 4, 5)]:
            add(fn, [x])
        add(fn, [t(3, 4), 1])
        add(fn, [t(3, 4)], {"diagonal": -2})
    for fn in ["torch.diag", "torch.Tensor.diag"]:
        for x in [t(3), t(0), t(3, 3), t(2, 4), t(4, 2), t(), t(2, 3, 4), t(0, 3), t(1, 1)]:
            for k in [0, 1, -1, 3, -5]:
                add(fn, [x, k] if k else [x])
    for fn in ["torch.diagonal", "torch.Tensor.diagonal"]:
        for x in [t(3, 3), t(2, 4), t(2, 3, 4), t(3), t(), t(0, 3), t(2, 3, 4, 5)]:
            for a, k in [([], {}), ([1], {}), ([-1], {}), ([0, 1, 2], {}), ([0, -1, -2], {}), ([0, 0, 0], {}),
                         ([], {"offset": 2, "dim1": 1, "dim2": 0}), ([0, 0, 3], {}), ([5], {})]:
                add(fn, [x] + a, k)
    for fn in ["torch.trace", "torch.Tensor.trace"]:
        for x in [t(3, 3), t(2, 4), t(3), t(), t(2, 3, 4), t(0, 0), ti(2, 2)]:
            add(fn, [x])
    for fn in ["torch.roll", "torch.Tensor.roll"]:
        for x in [t(2, 3), t(4), t(), t(2, 3, 4), t(0, 3)]:
            for a, k in [([1], {}), ([1, 0], {}), ([(1, 2), (0, 1)], {}), ([(1, 2), 0], {}), ([1, 2], {}),
                         ([(1, 2)], {}), ([-1, -1], {}), ([1, 3], {}), ([1], {"dims": (1,)}), ([(1,), (0,)], {})]:
                add(fn, [x] + a, k)
    for x in [t(2, 3), t(4), t(), t(2, 3, 4), t(0, 3)]:
        for a in [(0,), (0, 1), (-1,), (1, 1), (2,), (), (0, -2)]:
            add("torch.flip", [x, a])
        for a in [[0], [0, 1], [-1], [(0, 1)], [3], []]:
            add("torch.Tensor.flip", [x] + a)
    for fn in ["torch.broadcast_to", "torch.Tensor.broadcast_to"]:
        for s, tg in [((3, 1), (3, 4)), ((3, 1), (2, 3, 4)), ((3, 2), (3, 4)), ((), (2, 3)), ((3,), (2, 3)),
                      ((1,), (0,)), ((3, 1), (-1, 4)), ((2, 3), (3,)), ((2, 1), [2, 5])]:
            add(fn, [T(s), tg])
    for a, k in [([t(3), t(4)], {}), ([t(3), t(4)], {"indexing": "xy"}), ([t(3), t(4)], {"indexing": "ij"}),
                 ([[t(3), t(4), t(2)]], {"indexing": "ij"}), ([(t(2), t(5))], {"indexing": "xy"}),
                 ([t(3)], {"indexing": "ij"}), ([t(3), t(2, 2)], {"indexing": "ij"}), ([t(), t(3)], {"indexing": "ij"}),
                 ([t(0), t(3)], {"indexing": "ij"}), ([t(3), ti(4)], {"indexing": "ij"}),
                 ([t(3), t(4)], {"indexing": "yx"}), ([t(3), t(4), t(5)], {"indexing": "xy"})]:
        add("torch.meshgrid", a, k)
    for fn in ["torch.cross", "torch.linalg.cross", "torch.Tensor.cross"]:
        for a, b, k in [((4, 3), (4, 3), {}), ((3,), (3,), {}), ((4, 3), (1, 3), {}), ((3, 4), (3, 4), {}),
                        ((3, 4), (3, 4), {"dim": 0}), ((4, 3), (3,), {}), ((4, 2), (4, 2), {}), ((2, 3, 5), (2, 3, 5), {}),
                        ((4, 3), (4, 3), {"dim": 1}), ((4, 3), (4, 3), {"dim": 2}), ((4, 1), (4, 3), {}),
                        ((5, 3), (2, 3), {}), ((0, 3), (0, 3), {}), ((), (), {})]:
            add(fn, [T(a), T(b)], k)


def gen_spectral():
    for x in [t(2, 10), t(10), t(3, 4, 5), t(), t(2, 0), ti(8)]:
        for a in [(0, 2, 1), (-1, 3, 2), (1, 4, 4), (-1, 11, 1), (0, 1, 1), (1, 0, 1), (-1, 2, 0), (-1, 2, -1),
                  (3, 2, 1), (1, 5, 3)]:
            add("torch.Tensor.unfold", [x, *a])
    add("torch.Tensor.unfold", [t(2, 10)], {"dimension": 1, "size": 3, "step": 2})
    for fn in ["torch.hann_window", "torch.hamming_window", "torch.blackman_window", "torch.bartlett_window",
               "torch.kaiser_window"]:
        for a, k in [([8], {}), ([0], {}), ([1], {}), ([-1], {}), ([16, False], {}), ([8], {"dtype": torch.float64}),
                     ([8], {"dtype": torch.int64}), ([8], {"periodic": True})]:
            add(fn, a, k)
    for fn in ["torch.fft.fft", "torch.fft.ifft", "torch.fft.rfft", "torch.fft.irfft"]:
        for x in [t(4, 10), t(10), t(3, 4, 5), t(), t(2, 0), ti(8), t(1), t(2, 1)]:
            for a, k in [([], {}), ([16], {}), ([3], {}), ([None, 0], {}), ([], {"dim": 1}), ([], {"n": 0}),
                         ([], {"dim": 3}), ([], {"n": 5, "dim": -2})]:
                add(fn, [x] + a, k)


def gen_folding():
    rng = random.Random(SEED + 21)
    for i in range(60):
        x = rng.choice([t(2, 3, rng.randint(1, 9), rng.randint(1, 9)), t(3, rng.randint(1, 9), rng.randint(1, 9)),
                        t(1, 2, 6, 6)])
        k = rng.choice([1, 2, 3, (2, 3), (3, 1)])
        kw = {}
        for name, choices in [("dilation", [1, 2, (1, 2)]), ("padding", [0, 1, (1, 0)]), ("stride", [1, 2, (2, 1)])]:
            if rng.random() < 0.4:
                kw[name] = rng.choice(choices)
        add(F + "unfold", [x, k], kw)
        if i % 3 == 0:
            mod("torch.nn.Unfold", [k], kw, [x])
    for x, k, kw in [(t(1, 3, 4, 4), 5, {}), (t(1, 0, 4, 4), 2, {}), (t(0, 3, 4, 4), 2, {}), (t(1, 3, 0, 4), 1, {}),
                     (t(1, 3, 4, 4), 0, {}), (t(1, 3, 4, 4), 2, {"stride": 0}), (t(1, 3, 4, 4), 2, {"padding": -1}),
                     (t(1, 3, 4, 4), 2, {"dilation": 0}), (t(1, 3, 4, 4), (2, 2, 2), {}), (t(1, 3, 4, 4), (2,), {}),
                     (t(1, 2, 3, 8, 8), 2, {}), (t(8, 8), 2, {}), (t(0, 4, 4), 2, {})]:
        add(F + "unfold", [x, k], kw)
    for i in range(50):
        oh, ow = rng.randint(1, 9), rng.randint(1, 9)
        k = rng.choice([1, 2, 3, (2, 3)])
        kw = {}
        for name, choices in [("dilation", [1, 2]), ("padding", [0, 1]), ("stride", [1, 2, (2, 1)])]:
            if rng.random() < 0.4:
                kw[name] = rng.choice(choices)
        kh, kwd = (k, k) if isinstance(k, int) else k
        d, p = kw.get("dilation", 1), kw.get("padding", 0)
        s = kw.get("stride", 1)
        sh, sw = (s, s) if isinstance(s, int) else s
        nh = (oh + 2 * p - d * (kh - 1) - 1) // sh + 1
        nw = (ow + 2 * p - d * (kwd - 1) - 1) // sw + 1
        blocks = max(nh, 0) * max(nw, 0)
        c = rng.randint(1, 3)
        cols = c * kh * kwd + (1 if rng.random() < 0.15 else 0)
        length = blocks + (1 if rng.random() < 0.15 else 0)
        x = rng.choice([t(2, cols, length), t(cols, length)])
        add(F + "fold", [x, (oh, ow), k], kw)
        if i % 3 == 0:
            mod("torch.nn.Fold", [(oh, ow), k], kw, [x])
    for x, size, k, kw in [(t(2, 12, 16), 8, 2, {"stride": 2}), (t(2, 12, 16), (8, 8, 8), 2, {"stride": 2}),
                           (t(1, 2, 12, 16), (8, 8), 2, {"stride": 2}), (t(2, 12, 0), (1, 1), 2, {"stride": 2}),
                           (t(2, 0, 16), (8, 8), 2, {"stride": 2}), (t(0, 12, 16), (8, 8), 2, {"stride": 2}),
                           (t(2, 12, 25), (8, 8), 2, {"stride": 2, "padding": 1})]:
        add(F + "fold", [x, size, k], kw)
    # Window pooling needs every non-batch dim non-empty, channels included.
    for fn, x in [("max_pool2d", t(2, 0, 8, 8)), ("avg_pool2d", t(2, 0, 8, 8)), ("max_pool1d", t(2, 0, 8)),
                  ("avg_pool1d", t(2, 0, 8)), ("max_pool3d", t(1, 0, 4, 4, 4)), ("avg_pool3d", t(1, 0, 4, 4, 4)),
                  ("lp_pool2d", t(2, 0, 8, 8)), ("max_pool2d", t(0, 8, 8)), ("avg_pool2d", t(0, 8, 8)),
                  ("max_pool2d", t(0, 3, 8, 8)), ("avg_pool1d", t(0, 8))]:
        args = [x, 2, 2] if fn.startswith("lp") else [x, 2]
        add(F + fn, args)


# ---------------------------------------------------------------------------------------------- driver

def gen_data_dependent():
    """Results whose size the values decide (uniform fills make them exact)."""
    for fn in ["torch.nonzero", "torch.Tensor.nonzero", "torch.argwhere", "torch.Tensor.argwhere"]:
        for x in [tb(3, 4), tb(3, 4, fill=False), t(5), t(5, fill=1.0), t(), t(fill=2.0), t(0, 3),
                  ti(2, 3, 4, fill=1)]:
            add(fn, [x])
    for x in [tb(3, 4), t(2, 3, fill=1.0), t(), t(fill=1.0)]:
        add("torch.nonzero", [x], {"as_tuple": True})
        add("torch.where", [x])
    for fn in ["torch.masked_select", "torch.Tensor.masked_select"]:
        for x, m in [(t(3, 4), tb(3, 4)), (t(3, 4), tb(4)), (t(3, 4), tb(3, 4, fill=False)), (t(3, 4), tb(5)),
                     (t(3, 4), t(3, 4)), (t(3, 1), tb(1, 4)), (t(), tb(2)), (t(3, 4), ti(3, 4, fill=1))]:
            add(fn, [x, m])
    for fn in ["torch.unique", "torch.Tensor.unique"]:
        for x, k in [(t(2, 3), {}), (t(2, 3), {"return_inverse": True, "return_counts": True}),
                     (t(2, 3), {"dim": 1, "return_counts": True}), (t(2, 3), {"dim": 2}), (t(0, 3), {"dim": 0}),
                     (t(2, 0), {"dim": 0}), (t(0), {}), (ti(4, 2), {"dim": -1, "return_inverse": True}),
                     (t(0, 3), {"return_counts": True})]:
            add(fn, [x], k)
    add("torch.Tensor.unique", [t(2, 3), True, True, True, 0])
    for x, k in [(t(2, 3), {"return_inverse": True, "return_counts": True}),
                 (t(2, 3), {"dim": 0, "return_inverse": True}), (t(4), {}), (t(2, 3), {"dim": 3})]:
        add("torch.unique_consecutive", [x], k)
    for fn in ["torch.bincount", "torch.Tensor.bincount"]:
        for x, a, k in [(ti(5, fill=3), [], {}), (ti(5), [], {}), (ti(5, fill=3), [], {"minlength": 10}),
                        (ti(0), [], {"minlength": 4}), (ti(0), [], {}), (ti(2, 3), [], {}), (t(5), [], {}),
                        (ti(5, fill=-1), [], {}), (ti(4, fill=2), [t(4)], {}), (ti(4, fill=2), [t(3)], {}),
                        (ti(4, fill=2), [], {"weights": t(4, 1)})]:
            add(fn, [x] + a, k)


GENERATORS = [gen_creation, gen_views, gen_getitem, gen_joins, gen_math, gen_products, gen_reductions, gen_nn_conv,
              gen_nn_pool, gen_nn_norm, gen_nn_embedding, gen_nn_misc, gen_nn_rnn, gen_nn_attention, gen_losses,
              gen_queries, gen_pointwise_more, gen_init, gen_structure, gen_spectral, gen_folding,
              gen_data_dependent]


def build_cases():
    del CASES[:]
    for g in GENERATORS:
        g()
    counters = collections.Counter()
    for c in CASES:
        c.id = "%s/%04d" % (c.op, counters[c.op])
        counters[c.op] += 1
    return list(CASES)


DIM_KW = {"dim", "dims", "start_dim", "end_dim", "dim0", "dim1", "source", "destination"}


def walk_tensors(a, out):
    if isinstance(a, T):
        out.append(a.shape)
    elif isinstance(a, M):
        for x in a.args:
            walk_tensors(x, out)
        for x in a.kwargs.values():
            walk_tensors(x, out)
    elif isinstance(a, (tuple, list)) and not isinstance(a, torch.Size):
        for x in a:
            walk_tensors(x, out)
    elif isinstance(a, dict):
        for x in a.values():
            walk_tensors(x, out)


def walk_out_shapes(o, out):
    if isinstance(o, dict):
        if "shape" in o:
            out.append(o["shape"])
        for v in o.get("tuple", []):
            walk_out_shapes(v, out)


# positional argument indices (after the receiver/input at 0) that are dimensions, per op basename
DIM_POS = {n: (1, 2) for n in ["transpose", "swapaxes", "movedim", "moveaxis", "flatten"]}
DIM_POS.update({n: (1,) for n in [
    "unsqueeze", "squeeze", "sum", "mean", "amax", "amin", "logsumexp", "std", "var", "any", "all", "prod", "nansum",
    "count_nonzero", "argmax", "argmin", "softmax", "log_softmax", "cumsum", "cumprod", "logcumsumexp", "sort",
    "argsort", "unbind", "size", "cat", "concat", "concatenate", "stack", "unflatten", "gather", "index_select",
    "scatter", "scatter_add", "scatter_reduce", "narrow", "max", "min", "median", "glu",
    "index_add", "index_fill", "index_copy", "stride"]})
DIM_POS.update({n: (2,) for n in ["chunk", "split", "tensor_split", "topk", "kthvalue", "norm",
                                          "repeat_interleave", "take_along_dim"]})
DIM_POS["permute"] = tuple(range(1, 8))


def has_negative_int(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return v < 0
    if isinstance(v, (tuple, list)):
        return any(has_negative_int(x) for x in v)
    return False


def finish_tags(c, result, warned):
    tags = set(c.tags)
    tags.add("invalid" if "error" in result else "valid")
    shapes = []
    walk_tensors([c.args, c.kwargs, c.init_args or [], c.init_kwargs or {}], shapes)
    outs = []
    walk_out_shapes(result.get("ok"), outs)
    if any(0 in s for s in shapes + outs):
        tags.add("zero-size")
    if any(len(s) == 0 for s in shapes):
        tags.add("rank0")
    if any(len(s) == 5 for s in shapes):
        tags.add("rank5")
    if c.kwargs or c.init_kwargs:
        tags.add("keyword")
    for k, v in list(c.kwargs.items()) + list((c.init_kwargs or {}).items()):
        if k in DIM_KW and has_negative_int(v):
            tags.add("negative-dim")
    base = c.op.rsplit(".", 1)[1]
    if base in DIM_POS and not is_module_op(c.op):
        for i in DIM_POS[base]:
            if i < len(c.args) and has_negative_int(c.args[i]):
                tags.add("negative-dim")
    if warned:
        tags.add("warning")
    if is_module_op(c.op):
        tags.add("module")
    return sorted(tags)


def case_line(c, result, warned):
    d = {"id": c.id, "op": c.op, "args": [encode_arg(a) for a in c.args],
         "kwargs": {k: encode_arg(v) for k, v in c.kwargs.items()}, "result": result,
         "tags": finish_tags(c, result, warned)}
    if c.init_args is not None or c.init_kwargs is not None:
        d["init_args"] = [encode_arg(a) for a in (c.init_args or [])]
        d["init_kwargs"] = {k: encode_arg(v) for k, v in (c.init_kwargs or {}).items()}
    return json.dumps(d, sort_keys=True, separators=(",", ":"), allow_nan=False)


def worker(start):
    """Run cases from index `start`, one result line per case on stdout."""
    torch.set_num_threads(1)
    torch.set_warn_always(True)
    warnings.simplefilter("ignore")
    cases = build_cases()
    out = sys.stdout
    for i in range(start, len(cases)):
        c = cases[i]
        t0 = time.perf_counter()
        res, warned = run_case(c)
        dt = time.perf_counter() - t0
        if dt > SLOW_SECONDS:   # retry once (first-call warm-up), then give up
            t0 = time.perf_counter()
            res, warned = run_case(c)
            dt = time.perf_counter() - t0
        rec = {"i": i, "dt": dt, "warned": warned}
        if dt > SLOW_SECONDS:
            rec["skip"] = "slow (%.2fs)" % dt
        else:
            rec["result"] = res
        out.write(MARK + json.dumps(rec, sort_keys=True) + "\n")
        out.flush()


def run_all(cases):
    """Run every case in worker subprocesses; returns {index: (result, warned)} and a list of skips."""
    results = {}
    skips = []
    start = 0
    n = len(cases)
    while start < n:
        # fixed hash seed: some torch messages print Python sets ({'zeros', 'reflect', ...})
        env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", str(start)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        q = queue.Queue()

        def pump(p=proc, q=q):
            for line in p.stdout:
                q.put(line)
            q.put(None)

        th = threading.Thread(target=pump, daemon=True)
        th.start()
        expected = start
        while True:
            try:
                line = q.get(timeout=HANG_SECONDS)
            except queue.Empty:
                proc.kill()
                skips.append((expected, "hang"))
                expected += 1
                break
            if line is None:
                proc.wait()
                if expected < n:
                    skips.append((expected, "crash (exit %s)" % proc.returncode))
                    expected += 1
                break
            if not line.startswith(MARK):
                continue
            rec = json.loads(line[len(MARK):])
            i = rec["i"]
            assert i == expected, (i, expected)
            if "skip" in rec:
                skips.append((i, rec["skip"]))
            else:
                results[i] = (rec["result"], rec["warned"])
            expected += 1
            if expected % 500 == 0:
                print("  ... %d/%d" % (expected, n), file=sys.stderr)
        proc.wait()
        start = expected
    return results, skips


PART_BYTES = 512 * 1024


def write_parts(lines, out_dir):
    """Writes JSON lines into out_dir/part-NN.jsonl, a new part whenever one would pass PART_BYTES."""
    os.makedirs(out_dir, exist_ok=True)
    for old in glob.glob(os.path.join(out_dir, "part-*.jsonl")):
        os.remove(old)
    part, size, f = 0, 0, None
    for ln in lines:
        data = ln + "\n"
        if f is None or size + len(data.encode()) > PART_BYTES:
            if f is not None:
                f.close()
            f = open(os.path.join(out_dir, "part-%02d.jsonl" % part), "w", encoding="utf-8", newline="\n")
            part, size = part + 1, 0
        f.write(data)
        size += len(data.encode())
    if f is not None:
        f.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                                           "data", "shape_cases"))
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--list", action="store_true", help="only print the number of cases per op")
    opts = ap.parse_args()
    if opts.worker is not None:
        worker(opts.worker)
        return
    cases = build_cases()
    if opts.list:
        for op, n in sorted(collections.Counter(c.op for c in cases).items()):
            print("%5d %s" % (n, op))
        print("%5d total" % len(cases))
        return
    t0 = time.time()
    print("running %d cases under torch %s" % (len(cases), torch.__version__), file=sys.stderr)
    results, skips = run_all(cases)
    lines = []
    per_op = collections.defaultdict(lambda: [0, 0])
    for i, c in enumerate(cases):
        if i not in results:
            continue
        res, warned = results[i]
        lines.append(case_line(c, res, warned))
        per_op[c.op][0 if "ok" in res else 1] += 1
    header = {"header": True, "torch_version": torch.__version__, "python_version": platform.python_version(),
              "generator": "scripts/gen_shape_cases.py", "cases": len(lines)}
    out_path = os.path.normpath(opts.output)
    write_parts([json.dumps(header, sort_keys=True, separators=(",", ":"))] + lines, out_path)
    # summary
    err = sys.stderr
    print("\n%-50s %6s %6s %6s" % ("op", "cases", "valid", "invalid"), file=err)
    for op in sorted(per_op):
        v, iv = per_op[op]
        print("%-50s %6d %6d %6d" % (op, v + iv, v, iv), file=err)
    nv = sum(v for v, _ in per_op.values())
    ni = sum(iv for _, iv in per_op.values())
    for i, why in skips:
        print("skipped %s: %s" % (cases[i].id, why), file=err)
    print("\n%d cases (%d valid, %d invalid), %d ops, %d skipped, %.1fs -> %s"
          % (len(lines), nv, ni, len(per_op), len(skips), time.time() - t0, out_path),
          file=err)


if __name__ == "__main__":
    main()
