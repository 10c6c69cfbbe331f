#!/usr/bin/env python3
"""Write the generated files of corpus/sample (git-ignored, so no large or vendored-looking
file is ever committed). Idempotent; run before scanning the sample corpus (scripts/run-sample.sh,
.ci/run and the tests do).

- legacy_scripts/huge_generated.py: valid Python just over the default 2 MiB size limit
  (2,300,021 bytes), listed by `scan` as skipped_too_large.
- duplicated_utils/.venv/lib/python3.11/site-packages/fakepkg/mod.py and
  duplicated_utils/third_party/site-packages/oldpkg/legacy.py: an installed dependency and a stray
  site-packages folder, both of which the walk must skip.
"""
import os

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus", "sample")


def huge_generated():
    lines = ["# Generated file: unrolled tensor initialisers. Do not edit.", "import torch", ""]
    lines += ["x%d = torch.zeros(%d)" % (i, i % 7 + 1) for i in range(96294)]
    return "\n".join(lines) + "\n"


FILES = {
    "legacy_scripts/huge_generated.py": huge_generated,
    "duplicated_utils/.venv/lib/python3.11/site-packages/fakepkg/mod.py": lambda: (
        '"""Installed dependency inside a virtualenv: must be skipped (.venv, site-packages)."""\n\n'
        "import torch\n\n\ndef kron_all(a, b):\n    return torch.kron(a, b)\n"
    ),
    "duplicated_utils/third_party/site-packages/oldpkg/legacy.py": lambda: (
        '"""A stray site-packages directory outside any virtualenv: must be skipped."""\n\n'
        "import torch\n\n\ndef histogram(x):\n    return torch.histc(x, bins=10)\n"
    ),
}


def main():
    for rel, make in FILES.items():
        path = os.path.normpath(os.path.join(SAMPLE, rel))
        text = make()
        if os.path.exists(path):
            with open(path, encoding="utf-8", newline="") as f:
                if f.read() == text:
                    continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
