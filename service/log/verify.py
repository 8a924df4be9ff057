"""Export, verification and replay of match logs (``apocalypse-arena/log@2``, and the old
``apocalypse-arena/log@1``: :mod:`service.log.codec`).

``verify_log`` trusts nothing in the log: it checks the log format (the export's ``format``
against the roster's ``log_format`` in the chain; a log@2 log must hold I-JSON numbers
only), the hash chain (docs/CONTRACTS.md), the
roster in the chain against the export's seats/options/turn timeout and the causes of the
commands against the seat kinds (:mod:`service.log.roster`), the seed against its published
SHA-256 commitment, re-runs ``new_match`` from the seed and every
logged command through ``decide`` with ``derive_rng(seed, version)``, compares the produced
events with the logged ones and folds them to the final result (DESIGN.md, "provably fair").
``api/web/js/verify.js`` checks the format, chain, roster and seed commitment of a log@2
export the same way in any JavaScript runtime; only this verifier re-decides and folds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from domain.engine import Engine, RuleError, Setup, derive_rng
from service.log.codec import (
    LOG_FORMAT,
    LOG_FORMAT_V1,
    LOG_FORMATS,
    chain_errors,
    dumps,
    ijson,
    ijson_errors,
    loads,
    plain_json,
    seed_commitment,
)
from service.log.envelopes import batches, is_platform, stored, to_event
from service.log.roster import RosterCheck


def export_log(
    match_id: str,
    game: str,
    seats: list[dict[str, Any]],
    options: Mapping[str, Any],
    seed: bytes | None,
    commitment: str,
    envelopes: Sequence[Mapping[str, Any]],
    forked_from: Any = None,
    turn_timeout_s: float | None = None,
    log_format: str = LOG_FORMAT,
) -> dict[str, Any]:
    """The export document of a match whose log has ``log_format``: ``{"format",
    "match_id", "game", "seats", "options", "turn_timeout_s", "seed" (hex), "seed_commitment",
    "events": [full envelopes, with stored commands and nonces], "forked_from"?}``. A log@2
    document holds I-JSON values only (:func:`service.log.codec.ijson`)."""
    doc = {
        "format": log_format,
        "match_id": match_id,
        "game": game,
        "seats": seats,
        "options": dict(options),
        "turn_timeout_s": turn_timeout_s,
        "seed": seed.hex() if seed is not None else None,
        "seed_commitment": commitment,
        "events": [dict(e) for e in envelopes],
    }
    if forked_from:
        doc["forked_from"] = forked_from
    if log_format == LOG_FORMAT_V1:
        return doc
    # what ijson would give for a document without floats and big integers (every log
    # this server writes), copied in C instead of walked in Python (15% of a compaction)
    copied = _json_copy(doc) if plain_json(doc) else None
    return copied if copied is not None else ijson(doc)


def _same(produced, logged: Sequence[Mapping[str, Any]], log_format: str) -> bool:
    if len(produced) != len(logged):
        return False
    return all(
        p.type == e.get("type")
        and p.seat == e.get("seat")
        and stored(dict(p.data), log_format) == e.get("data")
        for p, e in zip(produced, logged, strict=True)
    )


_EVENT_NUMBER = re.compile(r"\bevent (\d+)")


def _missing(count: int) -> str:
    """``1 of them is missing`` / ``3 of them are missing``."""
    return f"{count} of them {'is' if count == 1 else 'are'} missing"


def _first_event(error: str) -> int:
    """The event number an error names first (``-1`` for an error about the whole log), the
    key that lists a log's errors in log order."""
    found = _EVENT_NUMBER.search(error)
    return int(found.group(1)) if found else -1


def _integral(value: Any) -> Any:
    """``value`` with every float that has an integral value within the I-JSON range as an
    ``int`` (how any other language reads a log@2 number: ``300.0`` is ``300``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


def _json_copy(value: Any) -> Any:
    """An independent deep copy of ``value`` (a :func:`service.log.codec.plain_json` value: the same
    dicts, lists and scalars) through the JSON codec; ``None`` when the codec cannot write
    it (a lone surrogate in a string: the caller takes the exact walks)."""
    try:
        return loads(dumps(value))
    except (TypeError, ValueError):
        return None


def verify_log(log: Mapping[str, Any], engines: Mapping[str, Engine]) -> dict[str, Any]:
    """Verify an exported log. Returns ``{"valid", "version", "result", "errors"}``.

    ``version`` is the number of events verified; ``result`` the engine's result after
    folding them (``None`` when the replay stopped early). A log that replays cleanly but
    ends before the match has a result is invalid (truncated). Never raises for bad content.
    """
    errors: list[str] = []
    log_format = log.get("format")
    if log_format not in LOG_FORMATS:
        return {
            "valid": False,
            "version": 0,
            "result": None,
            "errors": [f"format must be one of {list(LOG_FORMATS)!r}"],
        }
    if log_format != LOG_FORMAT_V1:
        # a number is its value (JCS): 300.0 is 300; an integer beyond 2^53 is refused,
        # since a parser in another language reads another number there. A log without
        # floats and big integers (every log this server writes) is only copied: for a
        # plain_json value (no float, no tuple: a copy would make it a list) ijson_errors
        # finds nothing and _integral changes nothing.
        copied = _json_copy(log) if plain_json(log) else None
        if copied is not None:
            log = copied
        else:
            errors += ijson_errors(log)[:20]
            log = _integral(log)
    events = log.get("events")
    match_id = log.get("match_id")
    if (
        not isinstance(match_id, str)
        or not isinstance(events, list)
        or not all(isinstance(e, dict) for e in events)
    ):
        return {
            "valid": False,
            "version": 0,
            "result": None,
            "errors": errors + ["match_id (string) and events (list of objects) are required"],
        }
    errors += chain_errors(match_id, events, log_format)
    game = log.get("game")
    engine = engines.get(game) if isinstance(game, str) else None
    if engine is None:
        return {
            "valid": False,
            "version": 0,
            "result": None,
            "errors": errors + [f"unknown game {log.get('game')!r}"],
        }
    try:
        seed = bytes.fromhex(log.get("seed") or "")
    except (TypeError, ValueError):
        seed = b""
    if len(seed) != 32:
        return {
            "valid": False,
            "version": 0,
            "result": None,
            "errors": errors + ["seed (64 hex digits) is required to verify"],
        }
    if seed_commitment(seed) != log.get("seed_commitment"):
        errors.append("seed does not match seed_commitment")
    seats = log.get("seats")
    if not isinstance(seats, list) or not seats:
        return {"valid": False, "version": 0, "result": None, "errors": errors + ["seats missing"]}
    roster = RosterCheck(log, engine)
    state, version = None, 0
    try:
        options = engine.validate_options(len(seats), log.get("options") or {})
        groups = batches(events)
        setup = engine.new_match(Setup(len(seats), options), derive_rng(seed, 0))
        if (
            not groups
            or groups[0][0].get("cause") != "setup"
            or not _same(setup, groups[0], log_format)
        ):
            errors.append("set-up events differ from new_match(seed)")
            groups = []
        else:
            for event in setup:
                state = engine.evolve(state, event)
            version = len(setup)
        for batch in groups[1:]:
            first = batch[0]
            if is_platform(first):
                roster.join(first)
                version += 1
                continue
            command, actor = first.get("command"), first.get("actor")
            abandon = first.get("cause") == "abandon" and actor is None
            if not isinstance(command, dict) or not (isinstance(actor, int) or abandon):
                errors.append(f"event {first.get('version')}: no stored command")
                break
            roster.cause(first, engine.resigned(state))
            produced = engine.decide(state, actor, command, derive_rng(seed, version))
            declared = roster.roster.get("rules_version", engine.rules_version)
            if declared != engine.rules_version and isinstance(declared, str):
                produced = engine.as_older_rules(produced, declared)  # as those rules said
            if batch is groups[-1] and _same(produced[: len(batch)], batch, log_format):
                if len(produced) > len(batch):
                    errors.append(
                        f"the log ends at event {batch[-1].get('version')}, inside the "
                        f"{len(produced)} events of the command at event "
                        f"{first.get('version')}: {_missing(len(produced) - len(batch))} "
                        "(truncated)"
                    )
                    break
            if not _same(produced, batch, log_format):
                older = (
                    ""
                    if declared == engine.rules_version
                    else f" (the log's rules version {declared!r} decided it; this server's "
                    f"{engine.rules_version!r} decides it differently)"
                )
                errors.append(
                    f"event {first.get('version')}: decide produced different events{older}"
                )
                break
            for env in batch:
                state = engine.evolve(state, to_event(env))
            version += len(batch)
    except RuleError as exc:
        errors.append(f"after event {version}: a logged command is illegal ({exc.code})")
    except (KeyError, TypeError, ValueError) as exc:
        errors.append(f"after event {version}: malformed log ({exc.__class__.__name__})")
    errors += roster.errors + roster.final_errors()
    errors.sort(key=_first_event)  # in log order: a broken chain and replay interleave
    result = engine.result(state) if state is not None else None
    if not errors and result is None:
        # An export exists only for a finished match: a log whose replay has no result
        # was cut short (even when it was cut at a command boundary).
        errors.append(f"the log ends at event {version} before the match has a result (truncated)")
    return {
        "valid": not errors and version == len(events),
        "version": version,
        "result": result,
        "errors": errors,
    }
