"""What each installed game keeps secret, read from its raw (server-side) state.

Each game keeps its model in its own folder (``<game package>/testing.py``, a
:class:`domain.testing.Secrecy` in its ``TESTING``), written from the game's own rules and
projections: which card ids only one seat may see (``private``), which lie face down for
everybody (``unseen``, ordered stacks top first, whose order nobody may learn), who owns an
event (``owner``: its owner is shown its data) and which public ids must not be tied to a
seat yet (``bound``: AI: 100% Human's chosen AI side before the reveal; its two sides are
public). :data:`SECRECY` collects them for every game of ``domain.games.registry()``.

The leak tests (``tests.support.leaks``) compare HTTP answers with these sets; they never
trust the projections under test to say what is secret.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.testing import Secrecy, strings
from tests.support.game_settings import settings_by_game

__all__ = ["SECRECY", "Secrecy", "strings", "union"]

#: game id -> its secrets (every game of ``domain.games.registry()`` has one)
SECRECY: dict[str, Secrecy] = {game: s.secrecy for game, s in settings_by_game().items()}


def union(sets: Iterable[set[str]]) -> set[str]:
    """The union of ``sets`` (empty for none)."""
    out: set[str] = set()
    for item in sets:
        out |= item
    return out
