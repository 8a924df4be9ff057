"""Generates ``arena_sdk/generated`` from ``openapi.yaml`` with openapi-python-client (the
version the server's test extras pin) — run it before ``pip install ./clients/python``:

    python clients/python/generate.py [--spec openapi.yaml] [--package-dir clients/python]

The generated code is never committed (``.gitignore``): it always matches the spec it was
made from. Errors: ``subprocess.CalledProcessError`` with the generator's output.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPEC = HERE.parents[1] / "openapi.yaml"


def generator() -> str:
    """The openapi-python-client executable (next to this Python, else on ``PATH``)."""
    beside = Path(sys.executable).parent / "openapi-python-client"
    return str(beside) if beside.exists() else "openapi-python-client"


def generate(spec: Path = SPEC, package_dir: Path = HERE) -> Path:
    """Writes ``<package_dir>/arena_sdk/generated`` from ``spec``; returns that folder."""
    target = package_dir / "arena_sdk" / "generated"
    with tempfile.TemporaryDirectory() as work:
        config = Path(work) / "config.yaml"
        config.write_text("post_hooks: []\n", encoding="utf-8")
        made = Path(work) / "generated"
        subprocess.run(
            [
                generator(),
                "generate",
                "--path",
                str(spec),
                "--meta",
                "none",
                "--output-path",
                str(made),
                "--config",
                str(config),
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=900,
        )
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(made, target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", type=Path, default=SPEC)
    parser.add_argument("--package-dir", type=Path, default=HERE)
    args = parser.parse_args(argv)
    print(generate(args.spec, args.package_dir))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
