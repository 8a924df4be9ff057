"""The verifiable roster: who plays which seat, under which options and rules, inside the
hash chain (issue 10 item 9).

The first set-up envelope carries ``roster``::

    {"game", "rules_version", "seats": [{"seat", "kind": "human"|"bot"|"open",
     "bot"?, "bot_options"?, "name"?, "player"?}], "options": {...},
     "turn_timeout_s": number|null, "forked_from"?: {"match_id", "version"},
     "log_format"?: "apocalypse-arena/log@3", "rated"?: true}

``player`` (log@3, issue 22) is the id of the player a human seat was bound to at creation
(``Authorization: Bearer <player key>``); a join's ``SeatJoined`` carries the joiner's
``player`` the same way; ``rated: true`` marks a match created to be rated. The export's
``seats`` show each seat's ``player``, so an export says who played. A log@1 or log@2 roster
holds neither (:class:`RosterCheck` refuses them there).

``log_format`` (absent in log@1 matches, which predate it) puts the log format inside the
hash chain: the export's ``format`` must equal it (:class:`RosterCheck`), so a log cannot
be passed off as the other format.

and each claim of an open seat is a platform envelope of its own (cause ``join``, type
``SeatJoined``, ``data: {"seat", "name"}``) that takes a version and that the game's fold
skips (:func:`service.log.envelopes.fold_envelope`). :func:`roster_errors` rebuilds the roster
from the log and compares it with the export's ``seats``, ``options`` and
``turn_timeout_s`` and the engine's rules version, and checks that each command's
``cause`` fits its seat: ``bot`` only for a bot seat; ``player`` only for a human seat (or
a joined open seat) that has not resigned; ``timeout`` never for a bot seat; ``abandon``
only without a seat. A fork's log starts with the original's first ``version`` envelopes:
its roster (in its first envelope, with ``forked_from``) is the fork's, and the joins and
causes of the copied part are the original's, so they are not checked against it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from service.log.codec import LOG_FORMAT, LOG_FORMAT_V1, PLAYER_FORMATS, seal
from service.log.envelopes import SEAT_JOINED, plain, stored

#: a match id (the API's ``MATCH_ID_PATTERN``): what a fork's ``forked_from`` names
MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: the seat kinds whose command batches may carry each cause
CAUSE_KINDS = {
    "player": ("human", "joined"),
    "timeout": ("human", "joined", "open"),
    "bot": ("bot",),
}


def roster_of(
    engine: Any,
    seats: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
    turn_timeout_s: float | None,
    forked_from: Any = None,
    log_format: str = LOG_FORMAT,
    rated: bool = False,
) -> dict[str, Any]:
    """The roster document of a new match of ``log_format`` (see module docstring);
    ``rated`` adds ``rated: true`` (log@3 only)."""
    roster: dict[str, Any] = {
        "game": engine.game_id,
        "rules_version": engine.rules_version,
        "seats": [dict(s) for s in seats],
        "options": dict(options),
        "turn_timeout_s": turn_timeout_s,
    }
    if forked_from:
        roster["forked_from"] = dict(forked_from)
    if log_format != LOG_FORMAT_V1:
        roster["log_format"] = log_format
    if rated and log_format in PLAYER_FORMATS:
        roster["rated"] = True
    return stored(roster, log_format)


def join_envelope(
    version: int,
    prev_hash: str,
    seat: int,
    name: str | None,
    at: str,
    log_format: str = LOG_FORMAT,
    player: str | None = None,
) -> dict[str, Any]:
    """The sealed ``SeatJoined`` platform envelope of a claimed open seat (hashed as the
    match's ``log_format``); ``player``: the joiner's player id (log@3 only)."""
    data: dict[str, Any] = {"seat": seat, "name": name}
    if player is not None and log_format in PLAYER_FORMATS:
        data["player"] = player
    env = {
        "version": version,
        "type": SEAT_JOINED,
        "seat": seat,
        "data": data,
        "command_id": None,
        "cause": "join",
        "at": at,
        "nonce": secrets.token_hex(16),
    }
    return seal(stored(env, log_format), prev_hash, log_format)


SEAT_FIELDS = ("seat", "kind", "bot", "bot_options", "name", "player")


def seats_from(
    roster: Mapping[str, Any], joins: Mapping[int, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The public seat list (as ``match_view`` / ``export`` show it) of ``roster`` after
    ``joins`` (seat -> the join's ``data``: ``{"name"?, "player"?}``)."""
    out = []
    for item in roster.get("seats") or []:
        entry = {k: item[k] for k in SEAT_FIELDS if item.get(k) not in (None, {}, "")}
        if item.get("seat") in joins:
            entry["kind"] = "human"
            for key in ("name", "player"):
                if joins[item["seat"]].get(key):
                    entry[key] = joins[item["seat"]][key]
        out.append(entry)
    return out


def fork_error(fork: Any, events: int) -> str | None:
    """Why ``fork`` (a roster's ``forked_from``) is not ``{"match_id": <match id>,
    "version": <1..events>}`` (``events``: how many the log has: the copied ones are among
    them), or ``None`` when it is."""
    if (
        not isinstance(fork, dict)
        or set(fork) != {"match_id", "version"}
        or not isinstance(fork["match_id"], str)
        or not MATCH_ID.fullmatch(fork["match_id"])
        or isinstance(fork["version"], bool)
        or not isinstance(fork["version"], int)
    ):
        return 'forked_from must be {"match_id": <match id>, "version": <integer>}'
    if not 1 <= fork["version"] <= events:
        return f"forked_from version {fork['version']} is outside the log's 1..{events}"
    return None


class RosterCheck:
    """Rebuilds the roster while :func:`service.log.verify.verify_log` walks the batches.

    Construct with the log and engine; call :meth:`join` for each platform envelope and
    :meth:`cause` for each command batch (with the seats resigned before it); read
    :attr:`errors` (reasons, each naming the event) and :meth:`final_errors` at the end.
    """

    def __init__(self, log: Mapping[str, Any], engine: Any):
        self.errors: list[str] = []
        self.players = False  # whether the format records players (log@3)
        events = log.get("events") or []
        first = events[0] if events else {}
        roster = first.get("roster")
        self.log = log
        if not isinstance(roster, dict) or not isinstance(roster.get("seats"), list):
            self.roster: dict[str, Any] = {}
            self.errors.append("event 1: the roster is missing from the first event")
            return
        self.roster = roster
        self.fork_version = 0
        if "forked_from" in roster:
            error = fork_error(roster["forked_from"], len(events))
            if error:
                self.errors.append(f"roster: {error}")
            else:
                self.fork_version = roster["forked_from"]["version"]
        self.kinds = {s.get("seat"): s.get("kind") for s in roster["seats"] if isinstance(s, dict)}
        self.joins: dict[int, dict[str, Any]] = {}
        if roster.get("game") != log.get("game"):
            self.errors.append(
                f"roster: game {roster.get('game')!r} differs from the log's {log.get('game')!r}"
            )
        declared = roster.get("log_format", LOG_FORMAT_V1)
        if declared != log.get("format"):
            self.errors.append(
                f"format {log.get('format')!r} differs from the log format "
                f"{declared!r} of the roster in the hash chain"
            )
        if declared not in PLAYER_FORMATS and (
            "rated" in roster or any(isinstance(s, dict) and "player" in s for s in roster["seats"])
        ):
            self.errors.append(f"roster: players and rated are not part of format {declared!r}")
        self.players = declared in PLAYER_FORMATS
        self._check_rules_version(roster.get("rules_version"), events, engine)

    def _check_rules_version(self, declared: Any, events: list, engine: Any) -> None:
        """An error unless the log's rules version is the engine's, or an older one the
        engine still re-decides exactly (``older_rules_verified``) and the log holds none of
        the event types where the two versions differ."""
        if declared == engine.rules_version:
            return
        differing = engine.older_rules_verified.get(declared)
        if differing is None:
            self.errors.append(
                f"roster: rules version {declared!r} is not "
                f"this server's {engine.rules_version!r} for {engine.game_id}"
            )
            return
        for env in events:
            if isinstance(env, dict) and env.get("type") in differing:
                self.errors.append(
                    f"event {env.get('version')}: a {env.get('type')} under rules version "
                    f"{declared!r}, which this server's {engine.rules_version!r} for "
                    f"{engine.game_id} decides differently: it cannot be re-decided here"
                )
                return

    def join(self, env: Mapping[str, Any]) -> None:
        """Apply one ``join`` envelope (an error when it is malformed or the seat was not
        an unclaimed open seat)."""
        version, data = env.get("version"), env.get("data") or {}
        seat = data.get("seat") if isinstance(data, dict) else None
        if not self.roster:
            return
        if env.get("type") != SEAT_JOINED or seat != env.get("seat"):
            self.errors.append(f"event {version}: a join must be a SeatJoined of its seat")
            return
        if isinstance(version, int) and version <= self.fork_version:
            return  # the original's join, copied into a fork
        if not isinstance(seat, int) or self.kinds.get(seat) != "open" or seat in self.joins:
            self.errors.append(f"event {version}: seat {seat} joined but was not an open seat")
            return
        if "player" in data and not self.players:
            self.errors.append(f"event {version}: a join's player is not part of this format")
        self.joins[seat] = dict(data)

    def cause(self, first: Mapping[str, Any], resigned: frozenset) -> None:
        """Check the ``cause`` of a command batch starting with ``first`` against the seat
        kind of its ``actor`` (see module docstring)."""
        if not self.roster:
            return
        version, cause, actor = first.get("version"), first.get("cause"), first.get("actor")
        if isinstance(version, int) and version <= self.fork_version:
            return  # decided under the original's roster
        if cause == "abandon":
            if actor is not None:
                self.errors.append(f"event {version}: an abandonment has no seat")
            return
        kind = self.kinds.get(actor)
        if kind == "open" and actor in self.joins:
            kind = "joined"
        allowed = CAUSE_KINDS.get(cause) if isinstance(cause, str) else None
        if allowed is None or kind not in allowed:
            self.errors.append(
                f"event {version}: cause {cause!r} does not fit seat {actor} "
                f"of kind {kind!r} in the roster"
            )
        elif cause == "player" and actor in resigned:
            self.errors.append(f"event {version}: seat {actor} resigned and cannot act itself")

    def final_errors(self) -> list[str]:
        """Differences between the rebuilt roster and the export's ``seats``, ``options``
        and ``turn_timeout_s``."""
        if not self.roster:
            return []
        out = []
        if seats_from(self.roster, self.joins) != self.log.get("seats"):
            out.append(
                "seats differ from the roster in the hash chain (kinds, names, players, "
                "bot levels or bot options were edited)"
            )
        if plain(self.roster.get("options")) != self.log.get("options"):
            out.append("options differ from the roster in the hash chain")
        if self.roster.get("turn_timeout_s") != self.log.get("turn_timeout_s"):
            out.append("turn_timeout_s differs from the roster in the hash chain")
        if self.roster.get("forked_from") != self.log.get("forked_from"):
            out.append("forked_from differs from the roster in the hash chain")
        return out
