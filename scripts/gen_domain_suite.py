#!/usr/bin/env python3
"""Run the hyperparameter-domain suite under real PyTorch and write tests/data/domain_suite/expected.tsv.

Every program is a folder tests/data/domain_suite/NN_name/ holding model.py (plus a JSON config for the
json_config style). tests/data/domain_suite/manifest.json lists, per program, the entry function (`run`),
the style in which the program declares its hyperparameter domain, the parameter names and the domain
itself (either {"kind": "product", "values": {name: [...]}} or {"kind": "combinations", "combinations":
[{name: value, ...}, ...]}).

For every program this script
  * imports model.py (no bytecode is written) and calls the entry function once for EVERY combination of
    the declared domain, with torch.manual_seed(0) before each call, single-threaded, on CPU;
  * records pass/fail, the exception class, the line of the innermost traceback frame inside model.py and
    the first line of the exception message;
  * refuses (exit 1) any failure that is not a shape/size error (wrong exception class or a message that
    does not talk about sizes/shapes/dimensions), and any program without at least one passing and one
    failing combination;
  * checks that the domain in the manifest is the one the program itself declares:
      argparse_choices   build_parser() choices of every parameter == manifest values;
      argparse_range     main([--flag, v]) reaches the entry with v for every v of the range, and is
                         rejected (SystemExit / AssertionError / ValueError) for the values just outside;
                         a parameter without a manifest range must instead be declared by argparse
                         choices equal to the manifest values (one option ranged, another a choice);
      literal_grid, itertools_product, for_loop, json_config
                         main() with the entry replaced by a recorder calls it with exactly the manifest
                         combinations (each once);
      dataclass_literal  the config dataclass field of every parameter is typed Literal[manifest values];
  * runs the program's real main() once: argparse styles with the flags of the first passing combination
    (must not raise); other styles as written, which must either finish (dataclass defaults) or stop with
    the same exception class and line as the first failing combination main() iterates over;
  * checks that model.py contains no comments.

Output: one TSV row per combination, sorted by folder then by the parameter values (numbers numerically),
columns: folder, combination (name=value,... in manifest parameter order), result (pass|fail),
exception class, line in model.py, first line of the message (the last three empty for pass rows).

Usage (from the repository root):
    /root/torchenv/bin/python scripts/gen_domain_suite.py            # verify, write expected.tsv
    /root/torchenv/bin/python scripts/gen_domain_suite.py --check    # verify, compare with expected.tsv
    /root/torchenv/bin/python scripts/gen_domain_suite.py --only 05_depth_range   # one program, print only
"""
import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import contextlib  # noqa: E402
import dataclasses  # noqa: E402
import importlib.util  # noqa: E402
import inspect  # noqa: E402
import io  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import tokenize  # noqa: E402
import traceback  # noqa: E402
import typing  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tests" / "data" / "domain_suite"
MANIFEST = SUITE / "manifest.json"
EXPECTED = SUITE / "expected.tsv"

STYLES = [
    "argparse_choices", "argparse_range", "literal_grid", "itertools_product", "for_loop",
    "dataclass_literal", "json_config",
]
MIN_PROGRAMS = 24
MIN_PER_STYLE = 3
SHAPE_EXC = {"RuntimeError", "ValueError", "IndexError", "AssertionError"}
SHAPE_MSG = re.compile(
    r"size|shape|dimension|divisible|mat1|mat2|must match|kernel|invalid for input|output size", re.I
)
HEADER = ["folder", "combination", "result", "exception", "line", "message"]


class SuiteError(Exception):
    pass


# ------------------------------------------------------------------------------------------- helpers

def fmt_value(v):
    return str(v)


def fmt_combo(params, combo):
    return ",".join(f"{p}={fmt_value(combo[p])}" for p in params)


def sort_key(params, combo):
    key = []
    for p in params:
        v = combo[p]
        if isinstance(v, bool):
            key.append((0, int(v), ""))
        elif isinstance(v, (int, float)):
            key.append((1, v, ""))
        else:
            key.append((2, 0, str(v)))
    return tuple(key)


def domain_combos(prog):
    params = prog["params"]
    dom = prog["domain"]
    if dom["kind"] == "product":
        if sorted(dom["values"]) != sorted(params):
            raise SuiteError("domain.values keys differ from params")
        lists = [dom["values"][p] for p in params]
        return [dict(zip(params, vals)) for vals in itertools.product(*lists)]
    if dom["kind"] == "combinations":
        combos = dom["combinations"]
        for c in combos:
            if sorted(c) != sorted(params):
                raise SuiteError(f"combination {c} does not name exactly the params {params}")
        return [dict(c) for c in combos]
    raise SuiteError(f"unknown domain kind {dom['kind']!r}")


def load_module(prog):
    path = SUITE / prog["folder"] / prog.get("file", "model.py")
    name = "domain_suite_" + re.sub(r"\W", "_", prog["folder"])
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    with quiet():
        spec.loader.exec_module(module)
    return module, path


@contextlib.contextmanager
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield


def innermost_line(exc, path):
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        try:
            same = os.path.samefile(frame.filename, path)
        except OSError:
            same = False
        if same:
            line = frame.lineno
    return line


def first_line(exc):
    msg = str(exc).strip().splitlines()
    return (msg[0] if msg else "").replace("\t", " ").strip()


def call(fn, path, *args, **kwargs):
    """Returns None on success, else (exception class name, line in model.py, first message line, exc)."""
    torch.manual_seed(0)
    try:
        with quiet():
            fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__, innermost_line(exc, path), first_line(exc), exc
    return None


def is_shape_error(exc_name, msg):
    return exc_name in SHAPE_EXC and bool(SHAPE_MSG.search(msg))


def check_no_comments(path):
    with open(path, "rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type == tokenize.COMMENT:
                raise SuiteError(f"{path.name}:{tok.start[0]} has a comment; programs must not have comments")


class Recorder:
    """Stands in for the entry function and records the parameters it is called with."""

    def __init__(self, real, params):
        self.sig = inspect.signature(real)
        self.params = params
        self.calls = []

    def __call__(self, *args, **kwargs):
        bound = self.sig.bind(*args, **kwargs)
        bound.apply_defaults()
        self.calls.append({p: bound.arguments[p] for p in self.params})
        return torch.zeros(1)


def with_recorder(module, prog, fn):
    real = getattr(module, prog["entry"])
    rec = Recorder(real, prog["params"])
    setattr(module, prog["entry"], rec)
    try:
        outcome = fn()
    finally:
        setattr(module, prog["entry"], real)
    return rec.calls, outcome


def run_quiet(fn):
    try:
        with quiet():
            fn()
    except BaseException as exc:  # noqa: BLE001 - SystemExit from argparse included
        return exc
    return None


def same_combo(a, b, params):
    return all(type(a[p]) is type(b[p]) and a[p] == b[p] for p in params)


# -------------------------------------------------------------------------------- domain verification

def find_action(parser, dest):
    for action in parser._actions:
        if action.dest == dest:
            return action
    raise SuiteError(f"build_parser() has no argument with dest {dest!r}")


def verify_argparse_choices(module, prog):
    parser = module.build_parser()
    for p in prog["params"]:
        action = find_action(parser, p)
        declared = list(action.choices or [])
        if declared != prog["domain"]["values"][p]:
            raise SuiteError(f"argparse choices of {p} are {declared}, manifest says {prog['domain']['values'][p]}")


def verify_argparse_range(module, prog):
    parser = module.build_parser()
    ranges = prog.get("range", {})
    if not ranges or not set(ranges) <= set(prog["params"]):
        raise SuiteError(f"manifest range {ranges} must name one or more of the params {prog['params']}")
    for p in prog["params"]:
        if p not in ranges:
            declared = list(find_action(parser, p).choices or [])
            if declared != prog["domain"]["values"][p]:
                raise SuiteError(f"{p} has no manifest range, and its argparse choices {declared} differ from "
                                 f"the manifest values {prog['domain']['values'][p]}")
            continue
        lo, hi = ranges[p]
        if prog["domain"]["values"][p] != list(range(lo, hi + 1)):
            raise SuiteError(f"manifest values of {p} are not range({lo}, {hi} + 1)")
        flag = find_action(parser, p).option_strings[-1]
        for v in range(lo - 1, hi + 2):
            calls, exc = with_recorder(module, prog, lambda: run_quiet(lambda: module.main([flag, str(v)])))
            inside = lo <= v <= hi
            if inside and (exc is not None or len(calls) != 1 or calls[0][p] != v):
                raise SuiteError(f"main([{flag}, {v}]) did not reach {prog['entry']} with {p}={v} ({exc!r})")
            if not inside and (calls or not isinstance(exc, (SystemExit, AssertionError, ValueError))):
                raise SuiteError(f"main([{flag}, {v}]) was not rejected although {v} is outside [{lo}, {hi}]")


def verify_by_recording_main(module, prog, combos):
    calls, exc = with_recorder(module, prog, lambda: run_quiet(module.main))
    if exc is not None:
        raise SuiteError(f"main() with a recording entry raised {exc!r}")
    params = prog["params"]
    unmatched = list(combos)
    for c in calls:
        hit = next((i for i, m in enumerate(unmatched) if same_combo(c, m, params)), None)
        if hit is None:
            raise SuiteError(f"main() calls {prog['entry']} with {c}, which is not (or twice) in the manifest domain")
        unmatched.pop(hit)
    if unmatched:
        raise SuiteError(f"main() never calls {prog['entry']} with {unmatched}")
    return calls


def verify_dataclass_literal(module, prog):
    cls = getattr(module, prog["config_class"])
    if not dataclasses.is_dataclass(cls):
        raise SuiteError(f"{prog['config_class']} is not a dataclass")
    hints = typing.get_type_hints(cls)
    for p in prog["params"]:
        hint = hints.get(p)
        if typing.get_origin(hint) is not typing.Literal:
            raise SuiteError(f"{prog['config_class']}.{p} is not typed Literal[...]")
        if list(typing.get_args(hint)) != prog["domain"]["values"][p]:
            raise SuiteError(f"{prog['config_class']}.{p} is {hint}, manifest says {prog['domain']['values'][p]}")


def verify_main(module, prog, path, results):
    """Runs the program's real main() once and checks it behaves as the per-combination results say."""
    style = prog["style"]
    params = prog["params"]
    by_combo = [(c, r) for c, r in results]
    if style in ("argparse_choices", "argparse_range"):
        parser = module.build_parser()
        combo = next(c for c, r in by_combo if r is None)
        argv = []
        for p in params:
            argv += [find_action(parser, p).option_strings[-1], str(combo[p])]
        exc = run_quiet(lambda: module.main(argv))
        if exc is not None:
            raise SuiteError(f"main({argv}) raised {exc!r} although that configuration passes")
        return f"main({' '.join(argv)}) ok"
    order, _ = with_recorder(module, prog, lambda: run_quiet(module.main))
    expected = None
    for c in order:
        r = next(r for m, r in by_combo if same_combo(c, m, params))
        if r is not None:
            expected = r
            break
    exc = run_quiet(module.main)
    if expected is None:
        if exc is not None:
            raise SuiteError(f"main() raised {exc!r} although every configuration it runs passes")
        return "main() ok"
    if exc is None:
        raise SuiteError("main() finished although it iterates over a failing configuration")
    got = (type(exc).__name__, innermost_line(exc, path))
    if got != expected[:2]:
        raise SuiteError(f"main() stopped with {got}, expected {expected[:2]}")
    return f"main() stops as expected with {got[0]} at line {got[1]}"


# ----------------------------------------------------------------------------------------------- main

def process(prog):
    folder = prog["folder"]
    if prog["style"] not in STYLES:
        raise SuiteError(f"unknown style {prog['style']!r}")
    combos = domain_combos(prog)
    module, path = load_module(prog)
    check_no_comments(path)
    entry = getattr(module, prog["entry"])

    results = []
    for combo in combos:
        r = call(entry, path, **combo)
        if r is not None:
            name, line, msg, exc = r
            if not is_shape_error(name, msg):
                tb = "".join(traceback.format_exception(exc))
                raise SuiteError(f"{fmt_combo(prog['params'], combo)} failed with a non-shape error:\n{tb}")
            if line is None:
                raise SuiteError(f"{fmt_combo(prog['params'], combo)}: no traceback frame inside model.py")
            r = (name, line, msg)
        results.append((combo, r))

    n_fail = sum(1 for _, r in results if r is not None)
    if n_fail == 0 or n_fail == len(results):
        raise SuiteError(f"needs >=1 passing and >=1 failing combination, has {len(results) - n_fail} / {n_fail}")

    style = prog["style"]
    if style == "argparse_choices":
        verify_argparse_choices(module, prog)
    elif style == "argparse_range":
        verify_argparse_range(module, prog)
    elif style == "dataclass_literal":
        verify_dataclass_literal(module, prog)
    else:
        verify_by_recording_main(module, prog, combos)
    note = verify_main(module, prog, path, results)

    rows = []
    for combo, r in sorted(results, key=lambda cr: sort_key(prog["params"], cr[0])):
        if r is None:
            rows.append([folder, fmt_combo(prog["params"], combo), "pass", "", "", ""])
        else:
            rows.append([folder, fmt_combo(prog["params"], combo), "fail", r[0], str(r[1]), r[2]])
    return rows, n_fail, len(results) - n_fail, note


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the existing expected.tsv, do not write")
    ap.add_argument("--only", help="process one folder and print its rows")
    ap.add_argument("-o", "--output", type=Path, default=EXPECTED)
    args = ap.parse_args()

    torch.set_num_threads(1)
    manifest = json.loads(MANIFEST.read_text())
    programs = sorted(manifest["programs"], key=lambda p: p["folder"])
    errors = []

    folders = [p["folder"] for p in programs]
    if len(set(folders)) != len(folders):
        errors.append("manifest: duplicate folders")
    on_disk = sorted(d.name for d in SUITE.iterdir() if d.is_dir() and not d.name.startswith(("_", ".")))
    if on_disk != sorted(folders):
        errors.append(f"manifest folders {sorted(folders)} differ from folders on disk {on_disk}")
    if args.only is None:
        if len(programs) < MIN_PROGRAMS:
            errors.append(f"only {len(programs)} programs, need {MIN_PROGRAMS}")
        for style in STYLES:
            n = sum(1 for p in programs if p["style"] == style)
            if n < MIN_PER_STYLE:
                errors.append(f"style {style} has {n} programs, need {MIN_PER_STYLE}")
    else:
        programs = [p for p in programs if p["folder"] == args.only]
        if not programs:
            sys.exit(f"no program {args.only!r} in the manifest")

    all_rows = []
    for prog in programs:
        try:
            rows, n_fail, n_pass, note = process(prog)
        except SuiteError as e:
            errors.append(f"{prog['folder']}: {e}")
            print(f"FAIL {prog['folder']}: {e}", file=sys.stderr)
            continue
        except Exception:  # noqa: BLE001
            errors.append(f"{prog['folder']}: unexpected error\n{traceback.format_exc()}")
            print(f"FAIL {prog['folder']}: unexpected error\n{traceback.format_exc()}", file=sys.stderr)
            continue
        print(f"ok   {prog['folder']:<30} {prog['style']:<18} fail={n_fail:<3} pass={n_pass:<3} {note}")
        all_rows.extend(rows)

    if errors:
        print(f"\n{len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print("  - " + e.splitlines()[0], file=sys.stderr)
        sys.exit(1)

    text = "\t".join(HEADER) + "\n" + "".join("\t".join(r) + "\n" for r in all_rows)
    if args.only is not None:
        sys.stdout.write(text)
        return
    n_fail = sum(1 for r in all_rows if r[2] == "fail")
    print(f"\n{len(programs)} programs, {len(all_rows)} combinations: {n_fail} fail, {len(all_rows) - n_fail} pass")
    if args.check:
        old = args.output.read_text() if args.output.exists() else ""
        if old != text:
            sys.exit(f"{args.output} is out of date; rerun without --check")
        print(f"{args.output} is up to date")
    else:
        args.output.write_text(text)
        print(f"wrote {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}")


if __name__ == "__main__":
    main()
