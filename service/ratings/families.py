"""Mode families: the leaderboard a match counts for (issue 22 item 2).

==================  ================================  ====================================
game                family (``mode``)                  opponent of a solo / co-op team
==================  ================================  ====================================
ai-100-human        ``solo`` (1 seat), ``2p``,         ``game:ai-100-human:solo``
                    ``3-6p``
aipokalypse         ``competitive`` (2-8), ``toma``    ``game:aipokalypse:<difficulty>``
                    (solo and co-op vs the A.I.Toma)   (handy_man, boss, endboss, untamed)
dead-apocalypse     ``coop`` (1-4), ``competitive``    ``game:dead-apocalypse:<difficulty>``
                    (the "more competitive" variant)   (standard, easy, easier, easiest)
any other game      ``<n>p`` (n seats, each for        —
                    itself)
==================  ================================  ====================================

Against the game every difficulty is a rated opponent of its own, as Lichess rates puzzles:
the seats play as one team and the team wins or loses against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: bot levels that are never rated (a rated match may not seat them): ``idle`` never acts
#: on its own, so a rating of it would measure the turn timer
UNRATED_LEVELS = frozenset({"idle"})

#: every family of the built-in games, per game (what a leaderboard's ``mode`` may be)
FAMILIES: dict[str, tuple[str, ...]] = {
    "ai-100-human": ("2p", "3-6p", "solo"),
    "aipokalypse": ("competitive", "toma"),
    "dead-apocalypse": ("coop", "competitive"),
}


@dataclass(frozen=True, slots=True)
class Family:
    """``mode``: the family's name; ``board``: ``<game>:<mode>`` (the leaderboard key);
    ``opponent``: the game as a rated player in a solo/co-op family (``None``: seats play
    each for itself)."""

    game: str
    mode: str
    opponent: str | None = None

    @property
    def board(self) -> str:
        return f"{self.game}:{self.mode}"


def family_of(game: str, seat_count: int, options: Mapping[str, Any]) -> Family:
    """The family of a match of ``game`` with ``seat_count`` seats and (validated)
    ``options`` (see the module table)."""
    if game == "ai-100-human":
        if seat_count == 1:
            return Family(game, "solo", "game:ai-100-human:solo")
        return Family(game, "2p" if seat_count == 2 else "3-6p")
    if game == "aipokalypse":
        mode = options.get("mode") or ("solo" if seat_count == 1 else "competitive")
        if mode == "competitive":
            return Family(game, "competitive")
        return Family(game, "toma", f"game:aipokalypse:{options.get('difficulty') or 'boss'}")
    if game == "dead-apocalypse":
        if options.get("competitive"):
            return Family(game, "competitive")
        return Family(
            game, "coop", f"game:dead-apocalypse:{options.get('difficulty') or 'standard'}"
        )
    return Family(game, f"{seat_count}p")


def modes_of(game: str, min_seats: int = 1, max_seats: int = 8) -> tuple[str, ...]:
    """The families a leaderboard of ``game`` may name (other games: ``<n>p``)."""
    if game in FAMILIES:
        return FAMILIES[game]
    return tuple(f"{n}p" for n in range(max(min_seats, 1), max_seats + 1))


def bot_player(game: str, level: str) -> str:
    """The rated player of a bot level: ``bot:<game>:<level>``."""
    return f"bot:{game}:{level}"


def human_player(player_id: str) -> str:
    """The rated player of a player: ``player:<id>``."""
    return f"player:{player_id}"
