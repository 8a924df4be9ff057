"""Platform commands every game decides: a seat's resignation and a match's abandonment.

They go through the game's ``decide`` (so they are commands in the hash chain that a
verifier re-runs) and produce the game's own events (``SeatResigned``, and the game's
``MatchEnded`` when the match ends by them); each game's RULINGS.md ("Resignation and
abandonment") says what resigning does in that game.

- ``{"type": "resign"}`` from a seat: ``SeatResigned {"seat"}``. A resigned seat loses:
  it is never among the winners and ranks below every seat that did not resign
  (:func:`demote`). A game that plays on has its decisions made by the game's timeout
  policy (the service's worker; the seat's own commands are refused).
- ``{"type": "abandon", "idle_s": N}`` without a seat (decided when no human acted for N
  seconds): the game's ``MatchEnded`` with :func:`abandoned_result` (``outcome:
  "abandoned"``: nobody wins, every seat shares the last rank with score 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.engine import Event, InvalidCommand, MatchFinished, RuleError

RESIGN = "resign"
ABANDON = "abandon"


class AlreadyResigned(RuleError):
    """The seat resigned already (HTTP 409, ``seat_resigned``)."""

    def __init__(self, seat: int):
        super().__init__("seat_resigned", f"Seat {seat} resigned already.", 409)


def platform_kind(command: Any) -> str | None:
    """``resign`` / ``abandon`` for a platform command, else ``None``."""
    kind = command.get("type") if isinstance(command, Mapping) else None
    return kind if kind in (RESIGN, ABANDON) else None


def check_resign(
    command: Mapping[str, Any], seat: Any, seats: int, resigned: Iterable[int], finished: bool
) -> int:
    """Validate a resign command of ``seat``; returns the seat. Raises MatchFinished,
    InvalidCommand (extra fields, no seat), AlreadyResigned."""
    if finished:
        raise MatchFinished()
    if set(command) != {"type"}:
        raise InvalidCommand("resign takes no fields.")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise InvalidCommand("Only a seat can resign.")
    if seat in set(resigned):
        raise AlreadyResigned(seat)
    return seat


def check_abandon(command: Mapping[str, Any], seat: Any, finished: bool) -> int:
    """Validate an abandon command (no seat, ``idle_s`` a positive integer); returns
    ``idle_s``. Raises MatchFinished, InvalidCommand."""
    if finished:
        raise MatchFinished()
    idle = command.get("idle_s")
    if (
        seat is not None
        or set(command) != {"type", "idle_s"}
        or isinstance(idle, bool)
        or not isinstance(idle, int)
        or idle < 1
    ):
        raise InvalidCommand("abandon is decided by the server, without a seat, with idle_s.")
    return idle


def abandoned_result(seats: int, idle_s: int) -> dict[str, Any]:
    """``{"outcome": "abandoned", "reason", "scores": [0...], "ranking": [{"seat", "score": 0,
    "rank": 1}...], "winners": []}``: nobody wins an abandoned match."""
    return {
        "outcome": "abandoned",
        "reason": f"no human acted for {idle_s} s",
        "scores": [0] * seats,
        "ranking": [{"seat": s, "score": 0, "rank": 1} for s in range(seats)],
        "winners": [],
    }


def standing(seats: int, resigned: Iterable[int]) -> list[int]:
    """The seats that did not resign."""
    out = set(resigned)
    return [s for s in range(seats) if s not in out]


def demote(result: dict[str, Any], resigned: list[int]) -> dict[str, Any]:
    """``result`` with the ``resigned`` seats (in the order they resigned) out of the
    winners and at the bottom of ``ranking`` (the earliest to resign last), plus
    ``resigned``. ``ranking`` entries are seats or ``{"seat", "rank", ...}`` objects
    (their ``rank`` is renumbered: a resigned seat's rank is below every other). When every
    winner resigned, the best-ranked standing seats win."""
    if not resigned:
        return result
    out = dict(result)
    ranking = list(result.get("ranking") or [])
    seat_of = (lambda r: r["seat"]) if ranking and isinstance(ranking[0], dict) else (lambda r: r)
    kept = [r for r in ranking if seat_of(r) not in resigned]
    gone = sorted(
        (r for r in ranking if seat_of(r) in resigned), key=lambda r: -resigned.index(seat_of(r))
    )
    winners = [w for w in result.get("winners") or [] if w not in resigned]
    if not winners and kept and result.get("winners"):
        first = kept[0]
        best = first.get("rank") if isinstance(first, dict) else None
        winners = sorted(
            seat_of(r)
            for r in kept
            if (r.get("rank") == best if isinstance(r, dict) else r == first)
        )
    if ranking and isinstance(ranking[0], dict):
        # standard competition ranks among the standing seats (ties kept: 1, 1, 3), then
        # one rank each for the resigned: 3 seats, the first resigned -> 1, 2, 3 (not 1, 3, 4)
        renumbered: list[dict[str, Any]] = []
        for place, r in enumerate(kept):
            tied = renumbered and r.get("rank") == kept[place - 1].get("rank")
            renumbered.append({**r, "rank": renumbered[-1]["rank"] if tied else place + 1})
        kept = renumbered
        gone = [{**r, "rank": len(kept) + 1 + i} for i, r in enumerate(gone)]
    out["ranking"] = kept + gone
    out["winners"] = sorted(winners)
    out["resigned"] = list(resigned)
    return out


class SeatStateLifecycle:
    """The engine hooks of RULINGS R-ABANDONED and the resigned-seat list for games whose
    folded state is an object with ``seat_count``, ``result`` and ``resigned`` (AI: 100%
    Human, Dead Apocalypse); mixed into their engines beside their own ``resign``."""

    def abandon(self, state: Any, seat: Any, command: Any) -> list:
        """RULINGS R-ABANDONED: ``MatchEnded`` with the abandoned result.

        Raises:
            RuleError: as :func:`check_abandon` (not a platform command, a finished match)."""
        idle = check_abandon(command, seat, state.result is not None)
        return [Event("MatchEnded", abandoned_result(state.seat_count, idle))]

    def resigned(self, state: Any) -> frozenset[int]:
        """The seats that resigned (``state.resigned``)."""
        return frozenset(state.resigned) if state is not None else frozenset()
