"""Every ruling of a game's RULINGS.md names the function that implements it (issue 19, item 5).

A ruling is a table row whose first cell starts with its id (``| R-SETUP `flow:setup` | ...``)
or a bullet that starts with it in bold (``- **R-OBJ** `game:options` (Setup 3) ...``). Right
after the id come one or more ``module:function`` references (``module`` relative to the game
package, ``function`` possibly ``Class.method``). The test fails when a reference does not
resolve, when the referenced function's docstring does not cite the id, or when an id is cited
nowhere in its game's code. One id style for all games: ``R-`` and an upper-case slug.
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import re

import pytest

GAMES_DIR = pathlib.Path(__file__).resolve().parents[2] / "domain" / "games"
GAMES = ("ai_100_human", "aipokalypse", "dead_apocalypse")
_REF = r"`[a-z0-9_.]+:[A-Za-z0-9_.]+`"
RULING = re.compile(
    r"^(?:\|\s*|\s*[-*]\s+\*\*)(?P<id>[RS]-[A-Za-z0-9-]+)(?:\.?\*\*|\s*)"
    rf"(?P<refs>\s*{_REF}(?:,\s*{_REF})*)?"
)
ID_STYLE = re.compile(r"^R-[A-Z0-9]+(?:-[A-Z0-9]+)*$")

# Rulings whose implementing function is not yet named (issue 19 item 5 not met while non-empty).
UNCITED: dict[str, set[str]] = {}


def rulings(game: str) -> list[tuple[str, list[str]]]:
    """``[(id, ["module:function", ...]), ...]`` in the order of ``<game>/RULINGS.md``."""
    out = []
    for line in (GAMES_DIR / game / "RULINGS.md").read_text(encoding="utf-8").splitlines():
        m = RULING.match(line)
        if m:
            refs = re.findall(r"`([^`]+)`", m.group("refs") or "")
            out.append((m.group("id"), refs))
    return out


def cites(text: str, rid: str) -> bool:
    """Whether ``text`` names ``rid`` as a whole id (``R-TOMA`` does not cite ``R-TOMA-END``)."""
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(rid)}(?![A-Za-z0-9-])", text) is not None


def resolve(game: str, ref: str):
    """The object ``module:function`` names inside ``domain.games.<game>``."""
    mod, _, attr = ref.partition(":")
    obj = importlib.import_module(f"domain.games.{game}.{mod}")
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def problems(game: str, rows: list[tuple[str, list[str]]]) -> list[str]:
    """What is wrong with ``rows`` of ``game`` (one line each; empty when all is well)."""
    out = []
    code = "\n".join(p.read_text(encoding="utf-8") for p in (GAMES_DIR / game).rglob("*.py"))
    allowed = UNCITED.get(game, set())
    ids = [rid for rid, _ in rows]
    out += [f"{rid}: defined twice" for rid in sorted({i for i in ids if ids.count(i) > 1})]
    for rid, refs in rows:
        if not ID_STYLE.match(rid):
            out.append(f"{rid}: id style is R-<UPPER-CASE-SLUG>")
        if rid in allowed:
            continue
        if not cites(code, rid):
            out.append(f"{rid}: cited nowhere in domain/games/{game}")
        if not refs:
            out.append(f"{rid}: the row names no `module:function`")
        for ref in refs:
            try:
                obj = resolve(game, ref)
            except (ImportError, AttributeError) as exc:
                out.append(f"{rid}: `{ref}` does not exist ({exc})")
                continue
            if not cites(inspect.getdoc(obj) or "", rid):
                out.append(f"{rid}: the docstring of `{ref}` does not cite it")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_names_a_function_whose_docstring_cites_it(game):
    rows = rulings(game)
    assert len(rows) > 10, "the ruling parser found no rows"
    stale = UNCITED.get(game, set()) - {rid for rid, refs in rows if not refs}
    assert not stale, f"remove from UNCITED (now cited or gone): {sorted(stale)}"
    found = problems(game, rows)
    assert not found, "\n".join(found)


def test_the_check_reports_each_kind_of_fault():
    rows = [
        ("R-NOWHERE-AT-ALL", ["views:view"]),  # cited nowhere, docstring silent
        ("R-SETUP", ["flow:no_such_function"]),  # the function does not exist
        ("R-SETUP", ["no_such_module:f"]),  # nor the module; R-SETUP defined twice
        ("R-BOOM", ["views:view"]),  # cited in code, not by this docstring
        ("R-boom", []),  # old style, no function named
    ]
    found = "\n".join(problems("aipokalypse", rows))
    assert "R-NOWHERE-AT-ALL: cited nowhere" in found
    assert "R-NOWHERE-AT-ALL: the docstring of `views:view` does not cite it" in found
    assert "R-SETUP: `flow:no_such_function` does not exist" in found
    assert "R-SETUP: `no_such_module:f` does not exist" in found
    assert "R-SETUP: defined twice" in found
    assert "R-BOOM: the docstring of `views:view` does not cite it" in found
    assert "R-boom: id style" in found and "R-boom: the row names no" in found
    assert problems("aipokalypse", [("R-BOOM", ["effects.opponents:_kill"])]) == []


def test_rows_are_read_from_tables_and_bullets():
    assert ("R-SETUP", ["flow:start_of_game"]) in rulings("aipokalypse")
    assert ("R-ZOMBIE-REPEAT", ["actions:zombie_repeats"]) in rulings("dead_apocalypse")
    assert ("R-POWERS", ["powers:ai6_actions", "powers:ai5_actions"]) in rulings("ai_100_human")
    assert ("R-RESIGN", ["game:AI100HumanEngine.resign"]) in rulings("ai_100_human")
