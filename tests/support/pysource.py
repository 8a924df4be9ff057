"""Parsing the project's Python sources in tests.

CPython 3.11's AST builder keeps its recursion counter per interpreter, not per thread
(python/cpython#106905): when another thread of the test process converts an AST at the
same time (3.11's ``traceback`` parses source lines to place its carets, so an embedded
server thread logging an exception is enough), ``ast.parse`` raises ``SystemError: AST
constructor recursion depth mismatch``. :func:`parse_module` keeps other threads from
running during the conversion and tries again if one was already inside it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

#: seconds the interpreter may run this thread before offering the GIL to another
_NO_SWITCH_S = 60.0


def parse_module(source: str | Path) -> ast.Module:
    """``ast.parse`` of ``source`` (text, or a path read as UTF-8) with no other Python
    thread running during it; retried up to 10 times on the 3.11 counter mismatch.

    Raises ``SyntaxError`` for invalid source, and the last ``SystemError`` when every
    attempt met the mismatch."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    previous = sys.getswitchinterval()
    sys.setswitchinterval(_NO_SWITCH_S)
    try:
        for attempt in range(10):
            try:
                return ast.parse(text)
            except SystemError:
                if attempt == 9:
                    raise
        raise AssertionError("unreachable")
    finally:
        sys.setswitchinterval(previous)
