"""Wrapping domain events into chained envelopes, and back (docs/CONTRACTS.md "Event envelope")."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from domain.engine import Event, redacted_type
from service.log.codec import LOG_FORMAT, LOG_FORMAT_V1, dumps, ijson, loads, public_envelope, seal


def utc_iso(moment: datetime | None = None) -> str:
    """``moment`` (default now) as ISO 8601 UTC with microseconds and ``+00:00``."""
    moment = moment or datetime.now(UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def plain(data: Any) -> Any:
    """``data`` as pure JSON values (tuples -> lists, int keys -> str), as stored.
    Raises ``TypeError`` for values JSON cannot hold."""
    return loads(dumps(data))


def stored(data: Any, log_format: str = LOG_FORMAT) -> Any:
    """``data`` as a log of ``log_format`` stores and hashes it: :func:`plain`, and for
    log@2 also I-JSON values (:func:`service.log.codec.ijson`: big integers as decimal strings,
    integral floats as integers). Raises ``TypeError``/``ValueError`` for values JSON (or
    I-JSON) cannot hold."""
    data = plain(data)
    return data if log_format == LOG_FORMAT_V1 else ijson(data)


#: causes of platform envelopes: facts about the match, not the game, that the game's fold
#: never sees (``join``: an open seat was claimed, type :data:`SEAT_JOINED`)
PLATFORM_CAUSES = frozenset({"join"})
SEAT_JOINED = "SeatJoined"


def is_platform(envelope: Mapping[str, Any]) -> bool:
    """True for a platform envelope (:data:`PLATFORM_CAUSES`): skipped by the game fold."""
    return envelope.get("cause") in PLATFORM_CAUSES


def fold_envelope(engine: Any, state: Any, envelope: Mapping[str, Any]) -> Any:
    """``engine.evolve(state, event)`` for a game envelope; ``state`` unchanged for a
    platform envelope (:func:`is_platform`)."""
    if is_platform(envelope):
        return state
    return engine.evolve(state, to_event(envelope))


def build_envelopes(
    events: Sequence[Event],
    first_version: int,
    prev_hash: str,
    cause: str,
    command_id: str | None = None,
    command: Mapping[str, Any] | None = None,
    actor: int | None = None,
    at: str | None = None,
    roster: Mapping[str, Any] | None = None,
    log_format: str = LOG_FORMAT,
) -> list[dict[str, Any]]:
    """Chained envelopes for one batch starting at ``first_version``, hashed as the match's
    ``log_format`` (its data, command and roster stored as :func:`stored` gives them).

    The first envelope of a command's batch also stores ``command`` (the command as
    decided) and ``actor`` (the deciding seat) so a verifier can re-run ``decide``.
    ``roster`` (set-up only) goes into the first envelope, inside the hash chain: the
    seats, game options, turn timeout and rules version (:mod:`service.log.roster`).
    Every envelope carries a random ``nonce`` (hashed, never shown before the export) so
    its published ``hash`` reveals nothing about redacted ``data``.
    """
    at = at or utc_iso()
    out: list[dict[str, Any]] = []
    for offset, event in enumerate(events):
        env: dict[str, Any] = {
            "version": first_version + offset,
            "type": event.type,
            "seat": event.seat,
            "data": stored(dict(event.data), log_format),
            "command_id": command_id,
            "cause": cause,
            "at": at,
            "nonce": secrets.token_hex(16),
        }
        if offset == 0 and command is not None:
            env["command"] = stored(dict(command), log_format)
            env["actor"] = actor
        if offset == 0 and roster is not None:
            env["roster"] = stored(dict(roster), log_format)
        prev_hash = seal(env, prev_hash, log_format)["hash"]
        out.append(env)
    return out


def rechain(
    envelopes: Iterable[Mapping[str, Any]], prev_hash: str, log_format: str = LOG_FORMAT
) -> list[dict[str, Any]]:
    """Copies of ``envelopes`` with a new hash chain of ``log_format`` starting at
    ``prev_hash`` (a fork; a fork of a log@1 match is a log@2 match, its copied envelopes
    turned into I-JSON values by :func:`stored`)."""
    out = []
    for env in envelopes:
        copy = stored({k: v for k, v in env.items() if k not in ("hash", "prev_hash")}, log_format)
        prev_hash = seal(copy, prev_hash, log_format)["hash"]
        out.append(copy)
    return out


def to_event(envelope: Mapping[str, Any]) -> Event:
    """The domain :class:`Event` inside an envelope."""
    return Event.from_dict(envelope)


def batches(envelopes: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """Split a log into batches: the setup batch, then one batch per ``command_id``."""
    groups: list[list[Mapping[str, Any]]] = []
    for env in envelopes:
        if is_platform(env):  # a join is a batch of its own
            groups.append([env])
            continue
        key = "setup" if env.get("cause") == "setup" else env.get("command_id")
        prev = groups[-1][0] if groups else None
        prev_key = (
            None
            if prev is None or is_platform(prev)
            else ("setup" if prev.get("cause") == "setup" else prev.get("command_id"))
        )
        if groups and prev_key is not None and key == prev_key and "command" not in env:
            groups[-1].append(env)
        else:
            groups.append([env])
    return groups


def redact_envelopes(
    engine: Any, envelopes: Iterable[Mapping[str, Any]], viewer: int | None, state: Any
) -> tuple[list[dict[str, Any]], Any]:
    """Fold ``envelopes`` into ``state``; return their copies as ``viewer`` may see them
    (``data`` from ``engine.redact``, ``type`` from ``engine.redact_type``, see
    :func:`domain.engine.redacted_type`) and the folded state."""
    out = []
    for env in envelopes:
        if is_platform(env):  # public facts (a join): shown as stored
            out.append(public_envelope(env))
            continue
        event = to_event(env)
        state = engine.evolve(state, event)
        copy = public_envelope(env)
        copy["type"] = redacted_type(engine, event, viewer, state)
        copy["data"] = engine.redact(event, viewer, state)
        out.append(copy)
    return out, state
