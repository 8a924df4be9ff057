"""``--bot-option LEVEL.KEY=VALUE``: per-seat bot options on the command line.

``arena play`` and ``arena simulate`` accept the option any number of times, e.g.
``--bot-option expert.time_budget_ms=800 --bot-option expert.budget=16``; every seat
played by that bot level gets those options (``bot_options`` of a seat, see
``GET /v1/games`` for each level's schema). The value is read as a JSON literal (``800``,
``1.5``, ``true``, ``"text"``), else taken as a plain string; the server (``play``) or the
engine (``simulate``) validates it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

import click

BOT_OPTION_HELP = (
    "Option of a bot level, LEVEL.KEY=VALUE (repeatable), e.g. "
    "expert.time_budget_ms=800; GET /v1/games lists each level's options."
)
_SPEC = re.compile(r"^(?P<level>[^.=\s]+)\.(?P<key>[^=\s]+)=(?P<value>.*)$", re.S)


#: Levels that are no general opponent: uniform random play and A.I.Pokalypse's turn-timeout
#: policy (``idle``, it only takes default options).
_NOT_DEFAULT = ("random", "idle")


def default_bot_level(levels: Sequence[str]) -> str:
    """The bot level ``arena play``/``arena simulate`` use when ``--bots`` is not given: the
    first level the game lists that is neither ``random`` nor ``idle`` (its general bot:
    ``greedy`` for AI: 100% Human, ``tactician`` for A.I.Pokalypse, ``cooperative`` for Dead
    Apocalypse), else ``random``, else the first level.

    Raises:
        click.BadParameter: the game has no bot level at all.
    """
    levels = list(levels)
    if not levels:
        raise click.BadParameter("the game has no bot levels", param_hint="--bots")
    best = [lv for lv in levels if lv not in _NOT_DEFAULT]
    return best[0] if best else ("random" if "random" in levels else levels[0])


def parse_bot_options(
    values: Sequence[str], levels: Iterable[str], param_hint: str = "--bot-option"
) -> dict[str, dict[str, Any]]:
    """Turn ``["expert.budget=8", "expert.time_budget_ms=800"]`` into
    ``{"expert": {"budget": 8, "time_budget_ms": 800}}``.

    Args:
        values: the repeated option's values.
        levels: the bot levels some seat plays (an option for another level would be
            silently unused, so it is refused).

    Raises:
        click.BadParameter: not ``LEVEL.KEY=VALUE``, a level no seat plays, or a key given
            twice.
    """
    playing = set(levels)
    out: dict[str, dict[str, Any]] = {}
    for spec in values:
        found = _SPEC.match(spec)
        if found is None:
            raise click.BadParameter(
                f"{spec!r} is not LEVEL.KEY=VALUE (e.g. expert.time_budget_ms=800)",
                param_hint=param_hint,
            )
        level, key, raw = found.group("level"), found.group("key"), found.group("value")
        if level not in playing:
            raise click.BadParameter(
                f"{spec!r} names bot level {level!r}, which no seat plays "
                f"(seats play: {', '.join(sorted(playing)) or 'no bots'})",
                param_hint=param_hint,
            )
        options = out.setdefault(level, {})
        if key in options:
            raise click.BadParameter(f"{level}.{key} is given twice", param_hint=param_hint)
        options[key] = _value(raw)
    return out


def _value(raw: str) -> Any:
    """A JSON literal when ``raw`` is one (``800`` -> 800, ``true`` -> True), else ``raw``."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw
