"""``openapi.yaml`` parsed once per test process.

The contract is 1.1 MB of YAML: PyYAML's pure-Python ``safe_load`` takes ~2 s of CPU for
it (more on a busy machine), its libyaml ``CSafeLoader`` ~0.5 s, and a dozen tests read it.
:func:`openapi_document` parses the file once (again when it changed on disk) and hands
every caller its own deep copy, so a test that edits the document changes nobody else's.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"
#: libyaml's safe loader where PyYAML was built with it (the same documents as ``safe_load``)
LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """``yaml.safe_load(text)`` through :data:`LOADER`."""
    return yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader


@lru_cache(maxsize=4)
def _parsed(path: str, mtime_ns: int, size: int) -> Any:
    return load_yaml(Path(path).read_text(encoding="utf-8"))


def openapi_document(path: Path = OPENAPI) -> dict[str, Any]:
    """A fresh copy of the YAML document at ``path`` (default: the committed
    ``openapi.yaml``), parsed once per process while the file is unchanged."""
    stat = path.stat()
    return copy.deepcopy(_parsed(str(path), stat.st_mtime_ns, stat.st_size))
