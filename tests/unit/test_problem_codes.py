"""``ProblemCode`` in ``openapi.yaml`` lists every code the server can send (issue 20 item
2), derived here from the code itself, so a new error class or ``Problem(...)`` with a new
code fails this test until the contract names it:

- ``Problem(status, "<code>", ...)`` and ``problem_response(status, "<code>", ...)`` (api/);
- ``super().__init__("<code>", status, ...)`` of the service's errors and of the domain's
  ``RuleError`` subclasses, and ``RuleError("<code>", ...)``, ``ServiceError("<code>", ...)``
  and the other :data:`ERROR_CLASSES` that take the code (service/, domain/ but the games,
  whose finer rule codes the ``ProblemCode`` pattern covers);
- the code tables: ``TITLES`` (api/errors.py), ``_HTTP_CODES`` and ``WIRE_CODES``
  (the codes of werkzeug's and the HTTP server's own errors).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support.openapi_doc import openapi_document
from tests.support.pysource import parse_module

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"^[a-z][a-z0-9_]*$")
SOURCES = [
    *sorted((ROOT / "api").glob("*.py")),
    *sorted((ROOT / "service").rglob("*.py")),
    *sorted((ROOT / "domain").glob("*.py")),
    *sorted((ROOT / "workers").rglob("*.py")),
]
#: the error classes whose first argument is the code (``RuleError("cell_not_adjacent", ...)``,
#: ``ServiceError("ratings_busy", 503, ...)``, ``InvalidPlayerName("player_name_taken", ...)``,
#: ``RatedMatchRefused("rated_bot_options", ...)``)
ERROR_CLASSES = {"RuleError", "ServiceError", "InvalidPlayerName", "RatedMatchRefused"}
TABLES = {"TITLES": "keys", "_HTTP_CODES": "values", "WIRE_CODES": "values"}


def _string(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
        return node.value
    return None


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def codes_in(tree: ast.Module) -> set[str]:
    """The error codes ``tree`` can answer (see the module docstring)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name, args = _name(node.func), node.args
            if name in ("Problem", "problem_response") and len(args) >= 2:
                found.add(_string(args[1]) or "")
            elif name in ERROR_CLASSES and args:
                found.add(_string(args[0]) or "")
            elif (
                name == "__init__"
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Call)
                and _name(node.func.value.func) == "super"
                and len(args) >= 2
            ):
                found.add(_string(args[0]) or "")
        targets = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        for target in targets:
            how = TABLES.get(target.id) if isinstance(target, ast.Name) else None
            if how and isinstance(value, ast.Dict):
                found |= {_string(n) or "" for n in (value.keys if how == "keys" else value.values)}
    return found - {""}


def server_codes() -> set[str]:
    codes: set[str] = set()
    for path in SOURCES:
        codes |= codes_in(parse_module(path))
    return codes


def documented_codes() -> set[str]:
    document = openapi_document()
    branches = document["components"]["schemas"]["ProblemCode"]["anyOf"]
    return {code for branch in branches for code in branch.get("enum", [])}


def test_problem_code_lists_every_code_the_server_can_send():
    derived = server_codes()
    assert len(derived) >= 40
    missing = derived - documented_codes()
    assert not missing, f"ProblemCode (api/openapi_base.yaml) lacks {sorted(missing)}"


def test_problem_code_lists_no_code_the_server_never_sends():
    stale = documented_codes() - server_codes()
    assert not stale, f"ProblemCode lists codes no source sends: {sorted(stale)}"


def test_the_derivation_finds_each_way_of_raising_a_code():
    # the check can fail: each form of raising a code is found
    tree = ast.parse(
        'raise Problem(404, "code_one", "x")\n'
        "class E(ServiceError):\n"
        "    def __init__(self):\n"
        '        super().__init__("code_two", 409, "x")\n'
        'raise RuleError("code_three", "x")\n'
        'TITLES = {"code_four": "Four"}\n'
        'WIRE_CODES: dict = {414: "code_five"}\n'
        'problem_response(429, "code_six", "x")\n'
        'super().__init__("A sentence, not a code.", 1)\n'
        'super().__init__("code_seven", detail, 400)\n'
        'raise errors.ServiceError("code_eight", 503, "x")\n'
    )
    assert codes_in(tree) == {
        "code_one",
        "code_two",
        "code_three",
        "code_four",
        "code_five",
        "code_six",
        "code_seven",
        "code_eight",
    }
