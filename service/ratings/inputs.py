"""What a finished match's log says for the ratings (issue 22 items 2-3), or why it is not
rated. Pure: the live job, ``arena ratings rebuild`` and ``arena ratings replay`` all read
an export document (``{"match_id", "game", "seats", "options", "events"}``) through
:func:`rating_input`, so they agree.

A match is rated when:

- its roster in the hash chain says ``rated: true`` (log@3, :mod:`service.log.roster`);
- every seat is a rated player: a human seat bound to a player (``player:<id>``, one seat
  per player) or a bot level (``bot:<game>:<level>``) played with its default options (a
  bot seat with ``bot_options``, such as a budget of 1, is not the level that was
  calibrated: ``bot_options``) and not one of
  :data:`service.ratings.families.UNRATED_LEVELS` (``idle``: ``unrated_level``);
- at least one seat is a player's (bots alone would only move each other's calibrated
  ratings: ``no_player``);
- it ended with a ``MatchEnded`` that is not an abandonment (``outcome: "abandoned"``);
- every seat made its first decision (a command batch of cause ``player`` or ``bot`` with
  that seat as actor, other than a resignation) before the end; otherwise it was aborted,
  as Lichess aborts a game before both sides moved (:func:`aborted`; an aborted match
  does not count in the players' ``played``/``won`` either).

Places: the result's ``ranking`` ranks (or winners first, everybody else second); a seat
that resigned, or whose last decision before the end was a timeout (it had left), is
placed last (behind every other seat, tied with other such seats). In a solo or co-op
family the seats are one team against the game (:mod:`service.ratings.families`): the team
places first when it won, second when it lost, both share first when the match stopped
(Dead Apocalypse's easiest variant at its turn limit).

The order of the fold is the end order: the ``at`` of the ``MatchEnded`` envelope (UTC,
microseconds) then the match id (:attr:`RatingInput.order`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from service.log.roster import SEAT_FIELDS
from service.ratings.families import UNRATED_LEVELS, bot_player, family_of, human_player

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: the platform's resign command type (:data:`service.usecases.lifecycle.RESIGN`)
RESIGN = "resign"


@dataclass(frozen=True, slots=True)
class RatingInput:
    """One rated match: ``board`` (``<game>:<mode>``), ``teams`` (rated player ids per
    team), ``ranks`` (1 = first, per team, ties shared), ``ended_at`` (ISO UTC),
    ``end_us`` (the end as integer microseconds since 1970)."""

    match_id: str
    board: str
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]
    ended_at: str
    end_us: int

    @property
    def order(self) -> tuple[int, str]:
        """The fold order: end time, then match id."""
        return (self.end_us, self.match_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "board": self.board,
            "teams": [list(t) for t in self.teams],
            "ranks": list(self.ranks),
            "ended_at": self.ended_at,
            "end_us": self.end_us,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> RatingInput:
        return cls(
            doc["match_id"],
            doc["board"],
            tuple(tuple(t) for t in doc["teams"]),
            tuple(doc["ranks"]),
            doc["ended_at"],
            int(doc["end_us"]),
        )


def end_us(at: str) -> int:
    """ISO 8601 time ``at`` as integer microseconds since 1970 (exact, no float)."""
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def rating_input(doc: Mapping[str, Any]) -> RatingInput | str:
    """The :class:`RatingInput` of an export document, or the reason it is not rated
    (``casual``, ``not_finished``, ``abandoned``, ``anonymous_seat``, ``bot_options``,
    ``unrated_level``, ``no_player``, ``player_twice``, ``aborted``, ``malformed``: no
    events, a roster without its ``game`` or an ``at`` that is no ISO time)."""
    events = doc.get("events") or []
    if not events or not isinstance(events[0], Mapping):
        return "malformed"
    roster = events[0].get("roster")
    if not isinstance(roster, Mapping) or roster.get("rated") is not True:
        return "casual"
    ended = next(
        (e for e in reversed(events) if isinstance(e, Mapping) and e.get("type") == "MatchEnded"),
        None,
    )
    if ended is None:
        return "not_finished"
    data = ended.get("data")
    result: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
    if result.get("outcome") == "abandoned":
        return "abandoned"
    seats = _seats(roster, events)
    game = roster.get("game")
    if not isinstance(game, str):
        return "malformed"
    players: list[str] = []
    for seat in seats:
        if seat.get("kind") == "bot":
            level = seat.get("bot") or "random"
            if seat.get("bot_options"):
                return "bot_options"
            if level in UNRATED_LEVELS:
                return "unrated_level"
            players.append(bot_player(game, level))
        elif seat.get("player"):
            players.append(human_player(seat["player"]))
        else:
            return "anonymous_seat"
    humans = [p for p in players if p.startswith("player:")]
    if not humans:
        return "no_player"
    if len(set(humans)) != len(humans):
        return "player_twice"
    if aborted(events, len(seats)):
        return "aborted"
    last_cause = {
        env["actor"]: env.get("cause")
        for env in events
        if isinstance(env, Mapping) and "command" in env and isinstance(env.get("actor"), int)
    }
    try:
        at = str(ended["at"])
        end = end_us(at)
    except (KeyError, TypeError, ValueError):
        return "malformed"
    given = roster.get("options")
    options: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    family = family_of(game, len(seats), options)
    left = set(result.get("resigned") or []) | {
        s for s, cause in last_cause.items() if cause == "timeout"
    }
    if family.opponent is not None:
        won = bool(result.get("winners")) and result.get("outcome") != "stopped"
        ranks: tuple[int, ...] = (
            (1, 1) if result.get("outcome") == "stopped" else ((1, 2) if won else (2, 1))
        )
        return RatingInput(
            doc.get("match_id") or "",
            family.board,
            (tuple(players), (family.opponent,)),
            ranks,
            at,
            end,
        )
    place = _places(result, len(seats))
    worst = max(place.values(), default=1) + 1
    ranks = tuple(worst if s in left else place[s] for s in range(len(seats)))
    return RatingInput(
        doc.get("match_id") or "", family.board, tuple((p,) for p in players), ranks, at, end
    )


def ended_outcome(
    match_id: str, events: list, seat_count: int, created_rated: bool
) -> tuple[bool, bool]:
    """``(rated, aborted)`` of a finished ``seat_count``-seat match from its envelopes
    ``events`` (the whole log): ``aborted`` by :func:`aborted`; ``rated`` when it was
    created rated (``created_rated``: the meta's ``rated``) and it counts for the ratings
    (:func:`rating_input` gives a :class:`RatingInput`), so never when it was aborted. The
    one answer of ``GET /v1/matches/{id}`` and of the players' histories
    (:meth:`service.usecases.players.Players.matches`)."""
    was_aborted = aborted(events, seat_count)
    rated = (
        created_rated
        and not was_aborted
        and isinstance(rating_input({"match_id": match_id, "events": events}), RatingInput)
    )
    return rated, was_aborted


def aborted(events: list, seat_count: int) -> bool:
    """True when a seat of a ``seat_count``-seat match never made its first decision in
    ``events`` (envelopes): a command batch of cause ``player`` or ``bot`` with the seat as
    ``actor``. A resignation is no decision (a seat that resigned before it decided
    anything leaves an aborted match, as Lichess aborts a game resigned before both sides
    moved), nor is a timeout's default answer."""
    decided: set[int] = set()
    for env in events:
        if not isinstance(env, Mapping) or "command" not in env:
            continue
        actor, command = env.get("actor"), env.get("command")
        if (
            isinstance(actor, int)
            and env.get("cause") in ("player", "bot")
            and not (isinstance(command, Mapping) and command.get("type") == RESIGN)
        ):
            decided.add(actor)
    return len(decided & set(range(seat_count))) != seat_count


def _seats(roster: Mapping[str, Any], events: list) -> list[dict[str, Any]]:
    """The roster's seats after its joins (a join's ``player`` binds the seat)."""
    seats = [
        {k: s.get(k) for k in SEAT_FIELDS}
        for s in roster.get("seats") or []
        if isinstance(s, Mapping)
    ]
    for env in events:
        if (
            isinstance(env, Mapping)
            and env.get("cause") == "join"
            and isinstance(env.get("data"), Mapping)
        ):
            seat = env["data"].get("seat")
            if isinstance(seat, int) and 0 <= seat < len(seats):
                seats[seat]["kind"] = "human"
                seats[seat]["player"] = env["data"].get("player")
    return seats


def _places(result: Mapping[str, Any], count: int) -> dict[int, int]:
    """seat -> rank from the result's ``ranking`` (or winners 1, the rest 2)."""
    ranking = result.get("ranking")
    place: dict[int, int] = {}
    if isinstance(ranking, list):
        for entry in ranking:
            if isinstance(entry, Mapping) and isinstance(entry.get("seat"), int):
                place[entry["seat"]] = int(entry.get("rank") or 1)
    if len(place) != count:
        winners = set(result.get("winners") or [])
        place = {s: 1 if s in winners else 2 for s in range(count)}
    return place
