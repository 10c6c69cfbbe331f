#!/usr/bin/env python3
"""Generate src/operators/torch_api.tsv: the PyTorch API names precise mode recognises.

Run with a real torch install (outside the repository), e.g.
    python3 -m venv ~/torchenv && ~/torchenv/bin/pip install torch numpy
    ~/torchenv/bin/python scripts/gen_torch_api.py > src/operators/torch_api.tsv

Rows (tab-separated):
    torch_version <version>
    namespace     <dotted module path>          a module object of torch (torch.nn.functional)
    function      <canonical name>              a public callable that is not a class
    class         <canonical name>              a public class that is not an nn.Module
    module        <canonical name>              an nn.Module subclass (instances are applied)
    method        torch.Tensor.<name> <sharing> a Tensor method; sharing is `plain`, `builtin`
                                                (also a method of str/list/dict/...: `split`,
                                                `index`) or `module` (also an nn.Module method:
                                                `to`, `cuda`); shared names need a known
                                                tensor receiver to count
    alias         <other path> <canonical>      another public dotted path to the same object
                                                (torch.nn.modules.conv.Conv2d -> torch.nn.Conv2d)
"""
import importlib
import inspect
import platform
import sys

import torch

NAMESPACES = [
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
    "torch.nn.utils.rnn", "torch.nn.utils.parametrize", "torch.nn.utils.parametrizations",
    "torch.nn.attention", "torch.nn.parallel", "torch.linalg", "torch.fft", "torch.special",
    "torch.autograd", "torch.autograd.functional", "torch.distributions", "torch.cuda",
    "torch.cuda.amp", "torch.amp", "torch.optim", "torch.optim.lr_scheduler", "torch.utils.data",
    "torch.utils.checkpoint", "torch.jit", "torch.distributed", "torch.sparse", "torch.masked",
    "torch.nested", "torch.func", "torch.random", "torch.testing", "torch.hub", "torch.onnx",
    "torch.export", "torch.compiler", "torch.fx", "torch.backends.cudnn", "torch.mps",
    "torch.signal.windows", "torch.ao.quantization", "torch.quantization",
]


def public(name):
    return not name.startswith("_")


def main():
    rows = []
    canonical_of = {}  # id(obj) -> canonical name (first namespace that exports it wins)
    seen = set()

    def add(kind, *cols):
        key = (kind,) + cols
        if key not in seen:
            seen.add(key)
            rows.append(key)

    modules = {}
    for ns in NAMESPACES:
        try:
            modules[ns] = importlib.import_module(ns)
        except Exception as e:  # a namespace missing from this build is skipped, not fatal
            print(f"skipping {ns}: {e}", file=sys.stderr)
    for ns, mod in modules.items():
        add("namespace", ns)
        for name in sorted(dir(mod)):
            if not public(name):
                continue
            try:
                obj = getattr(mod, name)
            except Exception:
                continue
            qual = f"{ns}.{name}"
            if inspect.ismodule(obj):
                if obj.__name__.startswith("torch.") and obj.__name__ == qual:
                    add("namespace", qual)
                continue
            if not callable(obj):
                continue
            if id(obj) in canonical_of and canonical_of[id(obj)] != qual:
                add("alias", qual, canonical_of[id(obj)])
                continue
            canonical_of[id(obj)] = qual
            if inspect.isclass(obj):
                kind = "module" if issubclass(obj, torch.nn.Module) else "class"
            else:
                kind = "function"
            add(kind, qual)
    # Definition paths (torch.nn.modules.conv.Conv2d) as aliases of the canonical name.
    for ns, mod in modules.items():
        for name in dir(mod):
            if not public(name):
                continue
            obj = getattr(mod, name, None)
            if obj is None or not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            defined = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"
            parts = defined.split(".")
            if parts[0] != "torch" or any(p.startswith("_") or p == "" for p in parts):
                continue
            canon = canonical_of.get(id(obj))
            if canon and canon != defined:
                add("alias", defined, canon)

    shared_builtin = set()
    for t in (str, bytes, list, dict, set, tuple, int, float, complex, object, bytearray):
        shared_builtin.update(dir(t))
    shared_module = set(dir(torch.nn.Module))
    for name in sorted(dir(torch.Tensor)):
        if not public(name):
            continue
        attr = inspect.getattr_static(torch.Tensor, name)
        if isinstance(attr, (property,)) or type(attr).__name__ in ("getset_descriptor", "member_descriptor"):
            continue
        if not callable(getattr(torch.Tensor, name, None)):
            continue
        sharing = "builtin" if name in shared_builtin else "module" if name in shared_module else "plain"
        add("method", f"torch.Tensor.{name}", sharing)

    out = sys.stdout
    out.write("# PyTorch API names for precise-mode operator recognition.\n")
    out.write("# Generated by scripts/gen_torch_api.py; do not edit by hand.\n")
    out.write(f"torch_version\t{torch.__version__}\n")
    out.write(f"python_version\t{platform.python_version()}\n")
    for row in rows:
        out.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
