#!/usr/bin/env python3
"""Mutation benchmark: how many real tensor shape bugs does shapehound find?

Model files from real libraries (the pinned sources in corpus/real/) get shape-breaking edits. A
mutant is *kept* when real PyTorch rejects it (an exception while building the model or running
one forward pass on a standard input) although the unmutated file runs. `measure` then runs
`shapehound check` on every kept mutant and every original and reports the share of mutants with
a finding the original does not have (the detection rate).

    /root/torchenv/bin/python scripts/mutation_bench.py generate
    python3 scripts/mutation_bench.py measure --binary target/release/shapehound

(generate: --limit N per file, default 15, 0 for all; --seed S; --only SUBSTR of the file path;
--timeout S; --out DIR. measure: --manifest FILE; --json OUT; --show-missed; --follow-imports checks every mutant
and original in place, in a scratch copy of its package tree, with `check --follow-imports`; --scan runs
`scan --follow-imports` over a scratch copy of the packages, first as they are (the baseline report and
its result cache), then once per mutant put in place, with `--baseline`: detected when the scan exits 1,
that is when it has a finding the unmutated packages do not have; the cache keeps each rescan to what
read the mutated file.)

`generate` needs the venv /root/torchenv (torch 2.15.0, CPU) with the corpus' package versions:
    /root/torchenv/bin/pip install torchvision==0.29.2 timm==1.0.31
That resolved without conflict (no --no-deps needed); the installed model files are byte-identical
to corpus/real/ (checked by `generate`). No weights are downloaded (weights=None, pretrained=False).
`measure` needs only python3.

Operators (AST sites, edited in the source text at their exact span; a replacement never adds or
removes a newline, so line numbers never move):
    channel      a channel/feature argument of a layer construction (nn.Conv2d, nn.BatchNorm2d,
                 nn.LayerNorm, Conv2dNormActivation, helpers such as conv3x3 or _make_layer;
                 arguments are matched to parameters through the callee's real signature):
                 n -> n+1 or 2n, 512 * e -> 511 * e, a -> a + 1 or a * 2
    in_features  the first argument of nn.Linear: a -> a + 1, a * 2 or another int channel parameter
    reshape      an int of a view/reshape/flatten/unflatten (256 * 6 * 6 -> 256 * 6 * 5,
                 flatten(x, 1) -> flatten(x, 2)), or its -1 moved to a neighbouring position
    cat_dim      the dim of cat/stack (1 -> 2 or 0; a missing dim of a torch call becomes dim=1)
    permute      adjacent permute indices swapped or the last dropped; a transpose index moved
Only sites on lines that a builder executes (line coverage of the original run) are mutated;
--limit caps the mutants per file (drawn round-robin across kinds); --seed fixes all choices.

Every model run is a forked child of `generate` (which imports torch and the packages once): the
child executes the file under its real module name (e.g. torchvision.models.resnet) so relative
imports resolve, builds the model (batch 1, eval, no_grad, one thread) and runs it; it is killed
after --timeout s. Outcomes: kept (RuntimeError, ValueError, IndexError, AssertionError or
TypeError while building or running, except ill-typed code such as list + 1), survived (still
runs), invalid (any other exception, an error while importing the module, a timeout, a crash).

Output, git-ignored third-party code that is never committed: corpus/mutants/<id>.py (each kept
mutant, the whole file), corpus/mutants/orig/<path> (the originals) and corpus/mutants/manifest.json
(every tried mutant: site, texts, builders, outcome, torch error, frames in the mutated file).
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import importlib.util
import inspect
import json
import os
import random
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = REPO_ROOT / "corpus" / "real"
OUT_DIR = REPO_ROOT / "corpus" / "mutants"
BUILDER_KWARGS = {"torchvision": {"weights": None}, "timm": {"pretrained": False}}
IMAGE_SIZE_KWARG = {"torchvision": "image_size", "timm": "img_size"}

# {package folder under corpus/real: {file stem: "builder ... [@SIDE] [sized]"}}: 1-3 small
# variants per file, run on a 1x3xSIDExSIDE input (SIDE 64 unless given); "sized" passes SIDE as
# the model's image size too (image_size= / img_size=), for models with a fixed token grid.
TARGETS = {
    "torchvision-0.29.2/torchvision/models": {
        "alexnet": "alexnet", "vgg": "vgg11_bn", "resnet": "resnet18 resnet50",
        "squeezenet": "squeezenet1_0 squeezenet1_1", "googlenet": "googlenet",
        "inception": "inception_v3 @96", "mobilenetv2": "mobilenet_v2",
        "mobilenetv3": "mobilenet_v3_small", "densenet": "densenet121",
        "shufflenetv2": "shufflenet_v2_x0_5", "mnasnet": "mnasnet0_5",
        "efficientnet": "efficientnet_b0 efficientnet_v2_s",
        "regnet": "regnet_y_400mf regnet_x_400mf", "convnext": "convnext_tiny",
        "vision_transformer": "vit_b_16 sized", "swin_transformer": "swin_t swin_v2_t",
        "maxvit": "maxvit_t @224",  # window partitions of 7 need 224
    },
    "timm-1.0.31/timm/models": {
        "resnet": "resnet18 resnet50d", "vgg": "vgg11", "convmixer": "convmixer_768_32",
        "mlp_mixer": "mixer_s16_224 resmlp_12_224 gmlp_ti16_224 sized",
        "vision_transformer": "vit_tiny_patch16_224 sized", "densenet": "densenet121",
        "convnext": "convnext_atto", "mobilenetv3": "mobilenetv3_small_050",
        "regnet": "regnetx_002", "inception_v3": "inception_v3 @96",
        "cait": "cait_xxs24_224 sized", "levit": "levit_128s sized", "pit": "pit_ti_224 sized",
        "xcit": "xcit_nano_12_p16_224 sized", "mobilevit": "mobilevit_xxs",
        "edgenext": "edgenext_xx_small", "ghostnet": "ghostnet_050", "rexnet": "rexnet_100",
        "dla": "dla34", "dpn": "dpn68", "senet": "legacy_seresnet18", "sknet": "skresnet18",
        "res2net": "res2net50_14w_8s", "resnest": "resnest14d",
        "vovnet": "ese_vovnet19b_slim_dw", "cspnet": "cspresnet50", "metaformer": "poolformer_s12",
        "swin_transformer": "swin_tiny_patch4_window7_224 @224",
        "twins": "twins_pcpvt_small sized", "tnt": "tnt_s_patch16_224 sized",
        "volo": "volo_d1_224 sized", "pvt_v2": "pvt_v2_b0", "convit": "convit_tiny sized",
        "deit": "deit_tiny_distilled_patch16_224 sized", "nest": "nest_tiny sized",
        "visformer": "visformer_tiny sized", "focalnet": "focalnet_tiny_srf",
        "mvitv2": "mvitv2_tiny sized", "efficientvit_mit": "efficientvit_b0",
        "gcvit": "gcvit_xxtiny sized", "davit": "davit_tiny", "hiera": "hiera_tiny_224 sized",
    },
}

KINDS = ("channel", "in_features", "reshape", "cat_dim", "permute")
SHAPE_ERRORS = (RuntimeError, ValueError, IndexError, AssertionError, TypeError)
NOT_SHAPE_ERRORS = (NotImplementedError, RecursionError)  # RuntimeError subclasses
# a TypeError/ValueError saying this means the mutation made ill-typed code, not a shape bug
ILL_TYPED = re.compile(r"unsupported operand|can only concatenate|can't multiply sequence|NoneType"
                       r"|failed to unpack")
CHANNEL_PARAM = re.compile(r"(^|_)(channels?|chs|chans|planes|inplanes|filters|dim)$|._features$"
                           r"|^normalized_shape$")
NON_LAYERS = {"Softmax", "Softmin", "LogSoftmax", "Flatten", "Unflatten", "GLU", "CosineSimilarity"}
RESHAPE_CALLS = {"view", "reshape"}
FLATTEN_CALLS = {"flatten", "unflatten", "Flatten", "Unflatten"}
CAT_CALLS = {"cat", "concat", "concatenate", "stack"}
TRANSPOSE_CALLS = {"transpose", "swapaxes", "swapdims"}


@dataclass
class Target:
    relpath: str  # relative to corpus/real
    package: str
    builders: list[str]
    side: int
    kwargs: dict

    @property
    def module(self) -> str:
        return self.relpath.split("/", 1)[1].removesuffix(".py").replace("/", ".")


def targets() -> list[Target]:
    """TARGETS expanded."""
    result = []
    for folder, files in TARGETS.items():
        package = folder.split("-", 1)[0]
        for stem, spec in files.items():
            words = spec.split()
            side = next((int(w[1:]) for w in words if w.startswith("@")), 64)
            kwargs = {**BUILDER_KWARGS[package],
                      **({IMAGE_SIZE_KWARG[package]: side} if "sized" in words else {})}
            builders = [w for w in words if w != "sized" and not w.startswith("@")]
            result.append(Target(f"{folder}/{stem}.py", package, builders, side, kwargs))
    return result


# --- mutation sites -------------------------------------------------------------------------

@dataclass
class Site:
    """A span of source text with candidate replacements; `lines` spans the enclosing call."""
    kind: str
    start: tuple[int, int]  # (line 1-based, byte column 0-based), as in the ast
    end: tuple[int, int]
    options: list[str]
    lines: tuple[int, int]


class Source:
    """A file's bytes, addressed by (line, byte column) positions."""

    def __init__(self, data: bytes):
        self.data, self.starts = data, [0]
        for line in data.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, pos: tuple[int, int]) -> int:
        return self.starts[pos[0] - 1] + pos[1]

    def text(self, start, end) -> str:
        return self.data[self.offset(start):self.offset(end)].decode()

    def node_text(self, node: ast.AST) -> str:
        return self.text(*span(node))

    def replace(self, start, end, new: str) -> bytes:
        return self.data[:self.offset(start)] + new.encode() + self.data[self.offset(end):]


def span(node: ast.AST):
    return (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)


def int_value(node: ast.AST | None):
    """The value of an int literal such as 3 or -1, else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_value(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def int_constants(node: ast.AST) -> list[ast.Constant]:
    """Int constants inside an expression in source order, except subscripts (window_size[1]
    -> [2] would only break a Python list index)."""
    indices = {id(n) for sub in ast.walk(node) if isinstance(sub, ast.Subscript)
               for n in ast.walk(sub.slice)}
    found = [n for n in ast.walk(node) if isinstance(n, ast.Constant) and type(n.value) is int
             and id(n) not in indices]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def call_name(func: ast.AST) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def dotted(node: ast.AST) -> list[str] | None:
    """['nn', 'Conv2d'] for nn.Conv2d, None for anything but a dotted name."""
    if isinstance(node, ast.Name):
        return [node.id]
    base = dotted(node.value) if isinstance(node, ast.Attribute) else None
    return base and base + [node.attr]


def arith(text: str, node: ast.AST) -> list[str]:
    """`a + 1` and `a * 2` for an expression (parenthesised unless it is atomic)."""
    atomic = isinstance(node, (ast.Name, ast.Attribute, ast.Constant, ast.Call, ast.Subscript))
    text = text if atomic else f"({text})"
    return [f"{text} + 1", f"{text} * 2"]


def function_locals(fn: ast.AST) -> set[str]:
    """Parameter and assigned names of a function (names that shadow module globals)."""
    a = fn.args
    names = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if p}
    return names | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, ast.Store)}


def int_channel_params(fn: ast.AST) -> list[str]:
    """Channel-like parameters of a function annotated `int` or with an int default."""
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = dict(zip(positional[len(positional) - len(a.defaults):], a.defaults))
    defaults.update(zip(a.kwonlyargs, a.kw_defaults))
    return [p.arg for p in positional + a.kwonlyargs if CHANNEL_PARAM.search(p.arg) and (
        getattr(p.annotation, "id", None) == "int" or int_value(defaults.get(p)) is not None)]


class SiteFinder(ast.NodeVisitor):
    """Collects the mutation sites of one module; callees are resolved in the imported module."""

    def __init__(self, src: Source, module, package: str):
        self.src, self.module, self.package = src, module, package
        self.classes: list[str] = []
        self.functions: list[ast.AST] = []
        self.sites: list[Site] = []

    def visit_ClassDef(self, node):
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def visit_FunctionDef(self, node):
        self.functions.append(node)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node):
        name = call_name(node.func)
        self.layer_sites(node)
        if name in RESHAPE_CALLS or name in FLATTEN_CALLS:
            self.reshape_sites(node, name)
        elif name in CAT_CALLS:
            self.cat_sites(node)
        elif name == "permute" or name in TRANSPOSE_CALLS:
            self.permute_sites(node, name)
        self.generic_visit(node)

    def add(self, kind, start, end, options, call):
        options = [o for o in dict.fromkeys(options) if o != self.src.text(start, end)]
        if options:
            self.sites.append(Site(kind, start, end, options, (call.lineno, call.end_lineno)))

    def reordered(self, elts: list[ast.AST], order: list[int]):
        """(start, end, text) of the elements in a new order (or only some of them), keeping the
        separators; None when that would add or remove a newline."""
        start, end = span(elts[0])[0], span(elts[-1])[1]
        seps = [self.src.text(span(a)[1], span(b)[0]) for a, b in zip(elts, elts[1:])]
        texts = [self.src.node_text(e) for e in elts]
        new = texts[order[0]] + "".join(s + texts[i] for s, i in zip(seps, order[1:]))
        same_lines = new.count("\n") == self.src.text(start, end).count("\n")
        return (start, end, new) if same_lines else None

    # -- callee resolution ----------------------------------------------------------------------
    def resolve(self, func: ast.AST):
        """(callable, drops_self) for a call target, or (None, False) when it is not known."""
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "self" and self.classes):
            owner = self.module
            for cls in self.classes:
                owner = getattr(owner, cls, None)
            obj = getattr(owner, func.attr, None)
            return (obj, True) if inspect.isfunction(obj) else (None, False)
        chain = dotted(func)
        if not chain or (self.functions and chain[0] in function_locals(self.functions[-1])):
            return None, False
        obj = vars(self.module).get(chain[0])
        for attr in chain[1:]:
            obj = getattr(obj, attr, None)
        return obj, False

    def is_layer(self, obj) -> bool:
        """nn.Module classes and the package's own functions (conv3x3, create_conv2d, ...)."""
        import torch
        target = obj.func if isinstance(obj, functools.partial) else obj
        if inspect.isclass(target):
            return issubclass(target, torch.nn.Module) and target.__name__ not in NON_LAYERS
        return inspect.isfunction(target) and target.__module__.split(".")[0] == self.package

    def bind(self, node: ast.Call):
        """({parameter name: argument node}, is nn.Linear) for a layer construction."""
        import torch
        obj, drop_self = self.resolve(node.func)
        if obj is None:  # a local such as norm_layer(...) outside forward: guess from the name
            in_forward = self.functions and self.functions[-1].name.startswith("forward")
            name = node.func.id.lower() if isinstance(node.func, ast.Name) else ""
            params = [] if in_forward else (
                ["in_features", "out_features"] if "linear" in name else
                ["num_features"] if "norm" in name else
                ["in_channels", "out_channels"] if "conv" in name else [])
            is_linear = "linear" in name
        elif self.is_layer(obj):
            try:
                sig = list(inspect.signature(obj).parameters.values())[int(drop_self):]
            except (TypeError, ValueError):
                sig = []
            params = [p.name for p in sig if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            is_linear = inspect.isclass(obj) and issubclass(obj, torch.nn.Linear)
        else:
            params = []
        if not params:
            return {}, False
        bound = {}
        for pname, arg in zip(params, node.args):
            if isinstance(arg, ast.Starred):
                break
            bound[pname] = arg
        bound.update({kw.arg: kw.value for kw in node.keywords if kw.arg})
        return bound, is_linear

    # -- operators ------------------------------------------------------------------------------
    def layer_sites(self, node: ast.Call):
        """channel and in_features sites of a layer construction."""
        bound, is_linear = self.bind(node)
        for pname, arg in bound.items():
            value, text = int_value(arg), self.src.node_text(arg)
            if is_linear and pname == "in_features":
                if value is not None:
                    options = [str(value + 1), str(value * 2)]
                else:  # or another int channel parameter in scope
                    options = arith(text, arg) + (
                        int_channel_params(self.functions[-1]) if self.functions else [])
                self.add("in_features", *span(arg), options, node)
            elif not CHANNEL_PARAM.search(pname):
                continue
            elif value is not None:
                if value > 0:
                    self.add("channel", *span(arg), [str(value + 1), str(value * 2)], node)
            elif consts := [c for c in int_constants(arg) if c.value >= 2]:
                self.add("channel", *span(consts[0]), [str(consts[0].value - 1)], node)
            elif not isinstance(arg, (ast.Constant, ast.Lambda, ast.Tuple, ast.List, ast.Dict)):
                self.add("channel", *span(arg), arith(text, arg), node)

    def shape_args(self, node: ast.Call) -> list[ast.AST]:
        """The shape/dim arguments: torch.f(x, ...) drops x; a single tuple argument is unpacked."""
        args = node.args
        if isinstance(node.func, ast.Attribute) and dotted(node.func.value) in (["torch"], ["np"]):
            args = args[1:]
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            args = args[0].elts
        return [] if any(isinstance(a, ast.Starred) for a in args) else list(args)

    def reshape_sites(self, node: ast.Call, name: str):
        """An int of a view/reshape target changed or its -1 moved; a flatten dim moved."""
        args = self.shape_args(node)
        flatten = name in FLATTEN_CALLS
        if flatten:
            args += [kw.value for kw in node.keywords if kw.arg]
        for i, arg in enumerate(args):
            value = int_value(arg)
            if not flatten and value == -1:
                j = i + 1 if i + 1 < len(args) else i - 1
                if j >= 0 and (moved := self.reordered(args[min(i, j):max(i, j) + 1], [1, 0])):
                    self.add("reshape", *moved[:2], [moved[2]], node)
            elif flatten and value is not None and value < 0:
                self.add("reshape", *span(arg), [str(value - 1)], node)
            else:
                for const in int_constants(arg):
                    n = const.value
                    self.add("reshape", *span(const), [str(n + 1 if flatten or n < 2 else n - 1)],
                             node)

    def cat_sites(self, node: ast.Call):
        """The dim of cat/stack moved; a missing dim of a torch call becomes dim=1."""
        dim = next((kw.value for kw in node.keywords if kw.arg in ("dim", "axis")), None)
        if dim is None and len(node.args) >= 2:
            dim = node.args[1]
        if (value := int_value(dim)) is not None:
            self.add("cat_dim", *span(dim), [str(value + 1), str(value - 1)], node)
        elif dim is None and len(node.args) == 1 and not node.keywords and (
                isinstance(node.func, ast.Name) or dotted(node.func.value) == ["torch"]):
            end = span(node.args[0])[1]
            self.add("cat_dim", end, end, [", dim=1"], node)

    def permute_sites(self, node: ast.Call, name: str):
        """Adjacent permute indices swapped or the last dropped; a transpose index moved."""
        args = self.shape_args(node)
        values = [int_value(a) for a in args]
        if len(args) < 2 or None in values:
            return
        if name in TRANSPOSE_CALLS:
            first, second = values[-2:]
            options = [str(second + 1 if second >= 0 else second - 1)]
            options += [str(second - 1)] if second - 1 not in (first, -1) else []
            self.add("permute", *span(args[-1]), options, node)
            return
        n = len(args)
        orders = [list(range(i)) + [i + 1, i] + list(range(i + 2, n)) for i in range(n - 1)]
        variants = [self.reordered(args, order) for order in orders + [list(range(n - 1))]]
        if all(variants):
            self.add("permute", *variants[0][:2], [v[2] for v in variants], node)


def find_sites(src: Source, module, package: str) -> list[Site]:
    finder = SiteFinder(src, module, package)
    finder.visit(ast.parse(src.data))
    return sorted(finder.sites, key=lambda s: (s.start, s.kind))


def select_sites(sites: list[Site], limit: int, rng: random.Random) -> list[Site]:
    """At most `limit` sites (0: all), drawn round-robin over the kinds (each kind shuffled)."""
    if not limit or len(sites) <= limit:
        return sites
    queues = [rng.sample(group, len(group)) for k in KINDS
              if (group := [s for s in sites if s.kind == k])]
    chosen = []
    while len(chosen) < limit:
        chosen += [q.pop() for q in queues if q][:limit - len(chosen)]
    return sorted(chosen, key=lambda s: (s.start, s.kind))


# --- running models (in forked children) ------------------------------------------------------

def load_module(name: str, path: str):
    """Execute the file at path as module `name`, replacing the installed one in sys.modules."""
    if name.startswith("torchvision."):  # its register_model refuses names already registered
        from torchvision.models import _api
        for key in [k for k, fn in _api.BUILTIN_MODELS.items() if fn.__module__ == name]:
            del _api.BUILTIN_MODELS[key]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def describe_error(exc: BaseException, path: str, phase: str, builder: str | None) -> dict:
    """Type, first message line, frames in the file at path (innermost last), raising frame."""
    frames = traceback.extract_tb(exc.__traceback__)
    inner = frames[-1] if frames else None
    return {
        "type": type(exc).__name__,
        "shape_like": isinstance(exc, SHAPE_ERRORS) and not isinstance(exc, NOT_SHAPE_ERRORS),
        "message": (str(exc).strip().splitlines() or [""])[0][:400],
        "phase": phase, "builder": builder,
        "frames": [{"line": f.lineno, "function": f.name, "code": f.line} for f in frames
                   if f.filename == path],
        "raised_at": inner and f"{inner.filename.split('site-packages/')[-1]}:{inner.lineno}",
    }


def output_shape(out):
    if hasattr(out, "shape"):
        return list(out.shape)
    if isinstance(out, (tuple, list)):
        return [output_shape(o) for o in out]
    return {k: output_shape(v) for k, v in out.items()} if isinstance(out, dict) else str(type(out))


def run_job(job: dict) -> dict:
    """Load job['path'] as job['module'], then build each builder and run it on a random input,
    stopping at the first error. With job['trace'], also record each builder's executed lines."""
    import torch
    path, covered = job["path"], set()

    def trace_lines(frame, event, arg):
        covered.add(frame.f_lineno)
        return trace_lines

    def trace_calls(frame, event, arg):
        return trace_lines(frame, event, arg) if frame.f_code.co_filename == path else None

    result, phase, builder = {"runs": [], "coverage": {}}, "load", None
    try:
        module = load_module(job["module"], path)
        for builder, kwargs in job["builders"]:
            covered.clear()
            sys.settrace(trace_calls if job["trace"] else None)
            torch.manual_seed(0)
            phase = "build"
            model = getattr(module, builder)(**kwargs).eval()
            phase = "forward"
            with torch.no_grad():
                out = model(torch.randn(1, 3, job["side"], job["side"]))
            sys.settrace(None)
            result["runs"].append({"builder": builder, "shape": output_shape(out)})
            result["coverage"][builder] = sorted(covered)
    except BaseException as exc:  # everything is reported, SystemExit included
        sys.settrace(None)
        result["error"] = describe_error(exc, path, phase, builder)
    return result


def run_in_child(job: dict, timeout: float) -> dict:
    """run_job in a forked child, killed after `timeout` s; the result comes back as JSON."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        devnull = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            os.dup2(devnull, fd)
        try:
            data = json.dumps(run_job(job)).encode()
        except BaseException as exc:
            data = json.dumps({"crash": repr(exc)}).encode()
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(data)
        os._exit(0)
    os.close(write_fd)
    chunks, deadline = [], time.monotonic() + timeout
    with os.fdopen(read_fd, "rb") as pipe:
        while chunk := (select.select([pipe], [], [], max(0, deadline - time.monotonic()))[0]
                        and os.read(pipe.fileno(), 1 << 16)):
            chunks.append(chunk)
    if time.monotonic() >= deadline:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return {"crash": f"timeout after {timeout:.0f} s"}
    _, status = os.waitpid(pid, 0)
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return {"crash": f"child ended (wait status {status}) without a result"}


def classify(result: dict) -> str:
    """kept / survived / invalid for a mutant's run."""
    error = result.get("error")
    if "crash" in result or (error and error["phase"] == "load"):
        return "invalid"
    if error is None:
        return "survived"
    return "kept" if error["shape_like"] and not ILL_TYPED.search(error["message"]) else "invalid"


# --- generate ---------------------------------------------------------------------------------

def prepare_target(target: Target, out_dir: Path, timeout: float, problems: list) -> dict | None:
    """Copy the original, run its builders with coverage, find its sites; None when unusable."""
    source_path = CORPUS / target.relpath
    if not source_path.exists():
        problems.append(f"{target.relpath}: missing from corpus/real")
        return None
    orig = out_dir / "orig" / target.relpath
    orig.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source_path, orig)
    try:
        module = importlib.import_module(target.module)
    except Exception as exc:
        problems.append(f"{target.relpath}: cannot import the installed module: {exc!r}")
        return None
    if Path(module.__file__).read_bytes() != source_path.read_bytes():
        problems.append(f"{target.relpath}: differs from the installed {module.__file__}")
    usable = {}
    for builder in target.builders:
        result = run_in_child({"module": target.module, "path": str(orig), "side": target.side,
                               "trace": True, "builders": [(builder, target.kwargs)]}, timeout)
        if result.get("runs"):
            usable[builder] = {"shape": result["runs"][0]["shape"],
                               "coverage": set(result["coverage"][builder])}
        else:
            problems.append(f"{target.relpath}: builder {builder} skipped, the original fails: "
                            f"{result.get('error') or result.get('crash')}")
    if not usable:
        return None
    src = Source(source_path.read_bytes())
    return {"target": target, "builders": usable, "src": src, "sites": find_sites(
        src, module, target.package), "orig": str(orig.relative_to(out_dir))}


def covering_builders(site: Site, builders: dict) -> list[str]:
    lines = set(range(site.lines[0], site.lines[1] + 1))
    return [name for name, info in builders.items() if info["coverage"] & lines]


def mutate_file(info: dict, args, out_dir: Path, records: list) -> int:
    """Create, run and classify the mutants of one target file; returns the unexecuted sites."""
    target, src = info["target"], info["src"]
    rng = random.Random(f"{args.seed}:{target.relpath}")
    prefix = f"{target.package}-{Path(target.relpath).stem}"
    covered = [s for s in info["sites"] if covering_builders(s, info["builders"])]
    taken = {r["id"] for r in records}
    for site in select_sites(covered, args.limit, rng):
        new = rng.choice(site.options)
        mutated = src.replace(site.start, site.end, new)
        assert mutated.count(b"\n") == src.data.count(b"\n"), "a mutation moved lines"
        mid = f"{prefix}-{site.kind}-L{site.start[0]}C{site.start[1]}"
        while mid in taken:
            mid += "x"
        taken.add(mid)
        builders = covering_builders(site, info["builders"])
        record = {"id": mid, "file": f"{mid}.py", "original": target.relpath,
                  "original_copy": info["orig"], "kind": site.kind, "line": site.start[0],
                  "column": site.start[1] + 1, "original_text": src.text(site.start, site.end),
                  "mutated_text": new, "builders": builders}
        path = out_dir / record["file"]
        path.write_bytes(mutated)
        result = run_in_child({"module": target.module, "path": str(path), "side": target.side,
                               "trace": False, "builders": [(b, target.kwargs) for b in builders]},
                              args.timeout)
        record.update(status=classify(result), error=result.get("error") or result.get("crash"),
                      output_shapes={r["builder"]: r["shape"] for r in result.get("runs", [])})
        if record["status"] != "kept":
            path.unlink()
        records.append(record)
        error = record["error"]
        note = error["type"] if isinstance(error, dict) else error
        print(f"  {record['status']:8} {mid}: {record['original_text']!r} -> {new!r}"
              + (f"  [{note}]" if note else ""), flush=True)
    return len(info["sites"]) - len(covered)


def summarise(records: list, key: str) -> dict:
    """{value of key: {'tried': n, status: count}} over the tried mutants."""
    table = defaultdict(Counter)
    for r in records:
        table[r[key]].update(["tried", r["status"]])
    return {k: dict(v) for k, v in sorted(table.items())}


def cmd_generate(args) -> int:
    import warnings
    import timm
    import torch
    import torchvision
    torch.set_num_threads(1)  # before any fork; the children inherit it
    warnings.filterwarnings("ignore")
    started = time.monotonic()
    out_dir = Path(args.out)
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    records, problems, files, uncovered = [], [], [], 0
    for target in [t for t in targets() if args.only is None or args.only in t.relpath]:
        print(target.relpath, flush=True)
        info = prepare_target(target, out_dir, args.timeout, problems)
        if info is None:
            problems.append(f"{target.relpath}: skipped")
            continue
        files.append({"original": target.relpath, "original_copy": info["orig"],
                      "module": target.module, "input": [1, 3, target.side, target.side],
                      "builder_kwargs": target.kwargs, "sites": len(info["sites"]),
                      "builders": {b: {"output_shape": v["shape"],
                                       "covered_lines": len(v["coverage"])}
                                   for b, v in info["builders"].items()}})
        uncovered += mutate_file(info, args, out_dir, records)
    elapsed = time.monotonic() - started
    counts = Counter(r["status"] for r in records)
    summary = {"tried": len(records), **{s: counts[s] for s in ("kept", "survived", "invalid")},
               "unexecuted_sites": uncovered, "by_kind": summarise(records, "kind"),
               "by_file": summarise(records, "original")}
    manifest = {"command": shlex.join([sys.executable] + sys.argv), "torch": torch.__version__,
                "torchvision": torchvision.__version__, "timm": timm.__version__,
                "python": sys.version.split()[0], "seed": args.seed, "limit": args.limit,
                "timeout_s": args.timeout, "seconds": round(elapsed, 1), "problems": problems,
                "summary": summary, "files": files, "mutants": records}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    for title in ("kind", "file"):
        print(f"\n{title:<48} {'tried':>6} {'kept':>6} {'surv.':>6} {'inval.':>6}")
        for name, row in summary[f"by_{title}"].items():
            print(f"{name:<48}" + "".join(f" {row.get(c, 0):>6}"
                                          for c in ("tried", "kept", "survived", "invalid")))
    print(f"\ntried {len(records)}: kept {counts['kept']}, survived {counts['survived']}, invalid "
          f"{counts['invalid']}; {uncovered} sites not executed by a builder; {elapsed:.0f} s")
    for problem in problems:
        print(f"problem: {problem}")
    return 0


# --- measure ----------------------------------------------------------------------------------

def run_check(binary: str, path: Path, timeout: float, follow_imports: bool = False):
    """({(kind, line)} of the findings, None), or (None, failure) when the tool failed."""
    command = [binary, "check", "--format", "json",
               "--follow-imports" if follow_imports else "--no-follow-imports"]
    try:
        proc = subprocess.run(command + [str(path)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {timeout:.0f} s"
    except OSError as exc:
        return None, f"cannot run: {exc}"
    if proc.returncode not in (0, 1):
        return None, f"exit {proc.returncode}: {(proc.stderr.strip().splitlines() or [''])[-1]}"
    try:
        findings = json.loads(proc.stdout)["findings"]
        keys = {(f["kind"], int(f["line"])) for f in findings}
    except (ValueError, KeyError, TypeError) as exc:
        return None, f"unreadable JSON: {exc!r}"
    if (proc.returncode == 1) != bool(findings):
        return None, f"exit {proc.returncode} with {len(findings)} findings"
    return keys, None


def rate(kept: int, detected: int) -> str:
    return f"{detected:>5}/{kept:<5} {100.0 * detected / kept:5.1f}%" if kept else "-"


class ScanInPlace:
    """A scratch copy of the corpus packages the mutants come from, scanned whole with imports
    followed: once as they are, then once per mutant put in place of its original, against the
    first report as a baseline (the nightly run of a platform team, one edit at a time)."""

    def __init__(self, binary: str, originals, timeout: float):
        self.binary, self.timeout = binary, timeout
        self.tmp = Path(tempfile.mkdtemp(prefix="shapehound-mutants-scan-"))
        self.root = self.tmp / "corpus"
        for top in sorted({Path(o).parts[0] for o in originals}):
            shutil.copytree(CORPUS / top, self.root / top, symlinks=True)
        self.base = self.tmp / "baseline"
        started = time.monotonic()
        code, failure = self.scan(self.base, [])
        if failure or code not in (0, 1):
            sys.exit(f"the scan of the unmutated packages failed: {failure or code}")
        self.first_seconds = time.monotonic() - started
        self.seconds = []

    def scan(self, out: Path, extra: list):
        command = [self.binary, "scan", str(self.root), "-o", str(out), "-q",
                   "--follow-imports", "--no-site-packages", "--cache", str(self.tmp / "cache")]
        try:
            proc = subprocess.run(command + extra, capture_output=True, text=True,
                                  timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return None, f"timeout after {self.timeout:.0f} s"
        if proc.returncode not in (0, 1):
            return None, f"exit {proc.returncode}: {(proc.stderr.strip().splitlines() or [''])[-1]}"
        return proc.returncode, None

    def detects(self, original: str, text: str):
        """(whether the scan with `original` replaced by `text` has a new finding, failure)."""
        target = self.root / original
        saved = target.read_bytes()
        started = time.monotonic()
        try:
            target.write_text(text)
            code, failure = self.scan(self.tmp / "mutant", ["--baseline", str(self.base)])
            return code == 1, failure
        finally:
            target.write_bytes(saved)
            self.seconds.append(time.monotonic() - started)

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


class InPlace:
    """A scratch copy of the corpus packages the mutants come from, so that `check
    --follow-imports` sees each mutant at its original path, next to the modules it imports."""

    def __init__(self, originals):
        self.root = Path(tempfile.mkdtemp(prefix="shapehound-mutants-"))
        for top in sorted({Path(o).parts[0] for o in originals}):
            shutil.copytree(CORPUS / top, self.root / top, symlinks=True)

    def check(self, binary: str, original: str, text: str, timeout: float):
        """Checks `original` in the copy, with its text replaced by `text`."""
        target = self.root / original
        saved = target.read_bytes()
        try:
            target.write_text(text)
            return run_check(binary, target, timeout, follow_imports=True)
        finally:
            target.write_bytes(saved)

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def cmd_measure(args) -> int:
    if not (shutil.which(args.binary) or Path(args.binary).is_file()):
        sys.exit(f"no such executable: {args.binary}")
    manifest_path = Path(args.manifest)
    manifest = json.loads(manifest_path.read_text())
    kept = [m for m in manifest["mutants"] if m["status"] == "kept"]
    if args.every > 1:
        kept = kept[::args.every]
    if args.scan:
        scanner = ScanInPlace(args.binary, [e["original"] for e in manifest["files"]], args.timeout)
        try:
            return measure_scan(args, manifest_path, kept, scanner)
        finally:
            scanner.close()
    in_place = InPlace([e["original"] for e in manifest["files"]]) if args.follow_imports else None
    try:
        return measure(args, manifest_path, manifest, kept, in_place)
    finally:
        if in_place:
            in_place.close()


def measure_scan(args, manifest_path: Path, kept, scanner: ScanInPlace) -> int:
    tables, missed, failures, detected = defaultdict(Counter), [], [], 0
    for mutant in kept:
        text = (manifest_path.parent / mutant["file"]).read_text()
        new, failure = scanner.detects(mutant["original"], text)
        if failure:
            failures.append({"file": mutant["file"], "failure": failure})
        detected += bool(new)
        for table in (("kind", mutant["kind"]), ("file", mutant["original"])):
            tables[table].update(kept=1, detected=int(bool(new)))
        if not new:
            missed.append(mutant)
    seconds = sorted(scanner.seconds)
    print(f"mutants kept {len(kept)}, detected by scan {rate(len(kept), detected)}")
    print(f"scan of the unmutated packages: {scanner.first_seconds:.1f} s; rescans with one "
          f"mutant: median {seconds[len(seconds) // 2]:.2f} s, max {seconds[-1]:.2f} s" if seconds
          else "")
    by = {t: {key: dict(row) for (title, key), row in sorted(tables.items()) if title == t}
          for t in ("kind", "file")}
    print(f"\n{'kind':<48} detected/kept")
    for key, row in by["kind"].items():
        print(f"{key:<48} {rate(row['kept'], row['detected'])}")
    print(f"\ntool failures: {len(failures)}")
    for failure in failures:
        print(f"  {failure['file']}: {failure['failure']}")
    if args.show_missed:
        print(f"\nmissed mutants: {len(missed)}")
        for m in missed:
            print(f"  {m['id']}  {m['original']}:{m['line']}  {m['kind']}  "
                  f"{m['original_text']!r} -> {m['mutated_text']!r}")
    if args.json:
        report = {"binary": args.binary, "mode": "scan", "kept": len(kept), "detected": detected,
                  "detection_rate": detected / len(kept) if kept else None,
                  "by_kind": by["kind"], "by_file": by["file"], "tool_failures": failures,
                  "first_scan_seconds": scanner.first_seconds, "rescan_seconds": seconds,
                  "missed": [m["id"] for m in missed]}
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


def measure(args, manifest_path: Path, manifest, kept, in_place) -> int:
    def check(original: str, copy: str):
        """`copy` (a mutant, or the original's byte-identical copy) checked on its own or in
        place of `original`."""
        path = manifest_path.parent / copy
        if in_place is None:
            return run_check(args.binary, path, args.timeout)
        return in_place.check(args.binary, original, path.read_text(), args.timeout)

    failures, originals = [], {}
    for entry in manifest["files"]:
        keys, failure = check(entry["original"], entry["original_copy"])
        if failure:
            failures.append({"file": entry["original_copy"], "failure": failure})
        originals[entry["original"]] = keys  # None: no baseline, so its mutants count as missed
    tables, missed, detected, localised = defaultdict(Counter), [], 0, 0
    for mutant in kept:
        keys, failure = check(mutant["original"], mutant["file"])
        if failure:
            failures.append({"file": mutant["file"], "failure": failure})
        baseline = originals[mutant["original"]]
        new = set() if keys is None or baseline is None else keys - baseline
        error_lines = {mutant["line"]} | {f["line"] for f in mutant["error"]["frames"]}
        detected += bool(new)
        localised += any(line in error_lines for _, line in new)
        for table in (("kind", mutant["kind"]), ("file", mutant["original"])):
            tables[table].update(kept=1, detected=int(bool(new)))
        if not new:
            missed.append(mutant)
    with_findings = {name: len(keys) for name, keys in originals.items() if keys}
    print(f"mutants kept {len(kept)}, detected {rate(len(kept), detected)}; with a new finding on "
          f"the mutated line or a traceback line of the mutant: {localised}")
    by = {t: {key: dict(row) for (title, key), row in sorted(tables.items()) if title == t}
          for t in ("kind", "file")}
    for title, table in by.items():
        print(f"\n{title:<48} detected/kept")
        for key, row in table.items():
            print(f"{key:<48} {rate(row['kept'], row['detected'])}")
    print(f"\ntool failures: {len(failures)}")
    for failure in failures:
        print(f"  {failure['file']}: {failure['failure']}")
    print(f"originals with findings (false-alarm candidates): {len(with_findings)}")
    for name, count in sorted(with_findings.items()):
        print(f"  {name}: {count} distinct (kind, line)")
    if args.show_missed:
        print(f"\nmissed mutants: {len(missed)}")
        for m in missed:
            error = f"{m['error']['type']}: {m['error']['message'][:120]}"
            print(f"  {m['id']}  {m['original']}:{m['line']}  {m['kind']}  "
                  f"{m['original_text']!r} -> {m['mutated_text']!r}  [{error}]")
    if args.json:
        report = {"binary": args.binary, "follow_imports": args.follow_imports, "kept": len(kept), "detected": detected,
                  "detection_rate": detected / len(kept) if kept else None, "localised": localised,
                  "by_kind": by["kind"], "by_file": by["file"], "tool_failures": failures,
                  "originals_with_findings": with_findings, "missed": [m["id"] for m in missed]}
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="create and run the mutants (needs torch)")
    gen.add_argument("--limit", type=int, default=15, help="at most N mutants per file (0: all)")
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--only", help="only the target files whose path contains this string")
    gen.add_argument("--timeout", type=float, default=60.0, help="seconds per model run")
    gen.add_argument("--out", default=str(OUT_DIR), help="output folder (emptied first)")
    meas = sub.add_parser("measure", help="run shapehound check on the kept mutants")
    meas.add_argument("--binary", required=True, help="the shapehound executable")
    meas.add_argument("--manifest", default=str(OUT_DIR / "manifest.json"))
    meas.add_argument("--timeout", type=float, default=60.0, help="seconds per check")
    meas.add_argument("--json", help="also write the figures to this file")
    meas.add_argument("--show-missed", action="store_true", help="list the undetected mutants")
    meas.add_argument("--follow-imports", action="store_true",
                      help="check each mutant in place in a scratch copy of its package tree, with "
                           "check --follow-imports")
    meas.add_argument("--scan", action="store_true",
                      help="scan a scratch copy of the packages with imports followed, once per "
                           "mutant put in place, against the unmutated scan as a baseline")
    meas.add_argument("--every", type=int, default=1,
                      help="only every Nth kept mutant, in manifest order (a sample spread over "
                           "every file and kind)")
    args = parser.parse_args()
    return cmd_generate(args) if args.command == "generate" else cmd_measure(args)


if __name__ == "__main__":
    sys.exit(main())
