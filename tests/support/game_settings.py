"""Every installed game's test settings, read from its own folder (``<game package>/
testing.py``, a :class:`domain.testing.GameTesting`): the generic tests take their game
lists, seats, options, set-ups and hidden-information models from here, never from a list
kept in the test (adding a game touches no generic test).

The suite registers the example games (``examples/``) with ``ARENA_GAME_PACKAGES``
(``tests/conftest.py``), so they are played by every generic test too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games import package_of, registry
from domain.testing import GameTesting, testing_of


def games() -> list[str]:
    """The installed game ids, sorted."""
    return sorted(registry())


def settings(game: str) -> GameTesting:
    """The test settings of ``game`` (KeyError: not installed)."""
    return testing_of(package_of(game))


def settings_by_game() -> dict[str, GameTesting]:
    """game id -> its test settings, for every installed game."""
    return {game: settings(game) for game in games()}


def e2e_options() -> dict[str, dict[str, Any]]:
    """game id -> the options its generic end-to-end matches are created with."""
    return {game: dict(s.options) for game, s in settings_by_game().items()}


def e2e_seats() -> dict[str, int]:
    """game id -> the number of (human) seats of its generic end-to-end matches."""
    return {game: s.seats for game, s in settings_by_game().items()}


def view_setups() -> list[tuple[str, int, Mapping[str, Any]]]:
    """``(game, seats, options)`` of every game's view set-ups (in-process playouts)."""
    return [
        (game, seats, dict(options))
        for game, s in settings_by_game().items()
        for seats, options in s.view_setups
    ]


def modes() -> list[tuple[str, int, Mapping[str, Any]]]:
    """``(game, seats, options)``: every mode of every game (the contract test)."""
    return [
        (game, seats, dict(options))
        for game, s in settings_by_game().items()
        for seats, options in s.all_modes()
    ]


def setup_id(game: str, seats: int, options: Mapping[str, Any]) -> str:
    """A readable pytest id of one set-up: ``aipokalypse-2-coop``, ``duel-2-default``."""
    words = [
        str(v) for v in options.values() if isinstance(v, (str, int)) and not isinstance(v, bool)
    ]
    return f"{game}-{seats}-{'-'.join(words) or ('default' if not options else len(options))}"
