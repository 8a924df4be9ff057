"""MatchService: the one application service (load -> fold -> decide -> append -> schedule).

Game-agnostic: every game is an ``Engine`` (``domain/engine.py``) from an injectable
registry. Method names, arguments and return shapes are the ones in docs/CONTRACTS.md.
Everything a viewer receives is produced by ``engine.view`` / ``engine.redact``.
"""
from __future__ import annotations

import json
import logging
import math
import secrets
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Mapping

from domain.engine import (Engine, InvalidBotOptions, InvalidCommand, MatchFinished, NotYourTurn,
                           RuleError, Setup, bot_options_schema, bot_options_schemas,
                           check_bot_options, derive_rng)
from service import errors
from service.bots import BotCache
from service.codec import (bot_rng, canonical_json, dumps, genesis_hash, loads, public_envelope,
                           seed_commitment, sha256_hex)
from service.envelopes import build_envelopes, rechain, to_event, utc_iso
from service.event_store import EventStore
from service.fold_cache import CachedFold, FoldCache, TokenCache
from service.keys import Keys
from service.match_record import MatchRecord
from service.metrics import Metrics
from service.scheduling import TurnScheduler
from service.snapshots import SnapshotStore
from service.tokens import find_seat, new_token, token_digest
from service.verify import export_log, verify_log

log = logging.getLogger(__name__)

SEAT_KINDS = ("human", "bot", "open")
MAX_TURN_TIMEOUT_S = 7 * 24 * 3600


@dataclass(slots=True)
class Loaded:
    """A match folded up to ``version`` (``state`` is owned by the caller)."""

    record: MatchRecord
    engine: Engine
    version: int
    head_hash: str
    state: Any


def _default_engines() -> Mapping[str, Engine]:
    from domain.games import registry

    return registry()


class MatchService:
    """Use cases of the arena over an :class:`EventStore` and a :class:`TurnScheduler`.

    Args:
        redis: event-store client (``decode_responses=True``).
        keys: key names.
        scheduler: RQ adapter, or ``None`` to run without workers (nothing is enqueued).
        engines: ``game_id -> Engine``; ``None`` = ``domain.games.registry()`` loaded lazily.
        snapshot_every: N of "snapshot every N events".
        append_attempts: re-load/re-decide attempts for a command without ``expected_version``.
        blocking_reads: use ``XREAD BLOCK`` for long-polls (False on fakeredis: poll loop).
        clock: returns the current aware UTC datetime (tests may inject one).
        fold_cache_size: matches whose folded state this process keeps between requests
            (:class:`service.fold_cache.FoldCache`; ``0`` disables it). Only a cache: every
            answer is the same without it.
        reconcile_full_s: seconds between two full :meth:`reconcile` passes (every running
            match); the passes between scan only the ``awaiting`` index.
    """

    def __init__(self, redis, keys: Keys, scheduler: TurnScheduler | None = None,
                 engines: Mapping[str, Engine] | None = None, *, snapshot_every: int = 50,
                 append_attempts: int = 5, blocking_reads: bool = True,
                 clock: Callable[[], datetime] | None = None, fold_cache_size: int = 1024,
                 reconcile_full_s: float = 60.0):
        self.redis = redis
        self.keys = keys
        self.scheduler = scheduler
        self.store = EventStore(redis, keys, blocking_reads=blocking_reads)
        self.snapshots = SnapshotStore(redis, keys, snapshot_every)
        self.counters = Metrics(redis, keys)
        self.append_attempts = append_attempts
        self._engines = engines
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.folds = FoldCache(fold_cache_size)
        self.bot_cache = BotCache()   # configured bots per (game, level, bot options)
        self.token_digests = TokenCache(4 * max(fold_cache_size, 1))
        self.reconcile_full_s = reconcile_full_s
        self._last_full_reconcile: float | None = None   # time.monotonic() of the last one

    # ------------------------------------------------------------------ engines/loading
    @property
    def engines(self) -> Mapping[str, Engine]:
        """The game registry (loaded on first use)."""
        if self._engines is None:
            self._engines = _default_engines()
        return self._engines

    def _engine(self, game: str) -> Engine:
        engine = self.engines.get(game)
        if engine is None:
            raise errors.UnknownGame(game)
        return engine

    def _record(self, match_id: str) -> MatchRecord:
        meta = self.store.meta(match_id) if isinstance(match_id, str) else {}
        if not meta or "game" not in meta:
            raise errors.MatchNotFound(str(match_id))
        return MatchRecord.parse(match_id, meta)

    def _load(self, match_id: str, upto: int | None = None,
              record: MatchRecord | None = None) -> Loaded:
        """Fold the match to ``upto`` (default: head) from the latest usable snapshot."""
        record = record or self._record(match_id)
        engine = self._engine(record.game)
        version = record.version if upto is None else upto
        state, start = None, 0
        snap = self.snapshots.load(match_id, record.game, engine.schema_version, version)
        if snap is not None:
            start, dumped = snap
            state = engine.load_state(dumped)
        tail = self.store.read(match_id, after=start, upto=version)
        for env in tail:
            state = engine.evolve(state, to_event(env))
        if start + len(tail) != version:
            raise RuntimeError(f"stream of {match_id} is missing events before {version}")
        if tail:
            head = tail[-1]["hash"]
        elif version == record.version:
            head = record.head_hash
        elif version == 0:
            head = genesis_hash(match_id)
        else:
            head = self.store.read(match_id, version - 1, version)[0]["hash"]
        return Loaded(record, engine, version, head, state)

    def _head(self, match_id: str, idem_field: str | None = None) -> tuple[Loaded, Any]:
        """The match folded to its head, through the fold cache, and the answer recorded
        under ``idem_field`` (``None`` when there is none or no field is given).

        One ``MULTI`` round trip reads the meta hash, the stream tail after the cached
        version and the idempotency record; the tail is folded into the cached state only
        when it links to the cached ``head_hash`` and ends at the meta version, else the
        match is loaded from its snapshot (:meth:`_load`). The returned state is owned by
        the caller; :meth:`_keep` gives it back once it is known to be exact.
        Raises MatchNotFound.
        """
        if not isinstance(match_id, str):
            raise errors.MatchNotFound(str(match_id))
        entry = self.folds.take(match_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(self.keys.meta(match_id))
        if entry is not None:
            pipe.xrange(self.keys.events(match_id), f"0-{entry.version + 1}", "+")
        if idem_field:
            pipe.hget(self.keys.idem(match_id), idem_field)
        replies = pipe.execute()
        meta = replies[0]
        if not meta or "game" not in meta:
            raise errors.MatchNotFound(match_id)
        record = MatchRecord.parse(match_id, meta)
        raw_prior = replies[-1] if idem_field else None
        prior = None if raw_prior is None else loads(raw_prior)
        engine = self._engine(record.game)
        if entry is not None and entry.game == record.game:
            tail = [loads(fields["e"]) for _entry_id, fields in replies[1]]
            head = tail[-1]["hash"] if tail else entry.head_hash
            linked = tail[0].get("prev_hash") == entry.head_hash if tail else True
            if linked and head == record.head_hash and entry.version + len(tail) == record.version:
                state = entry.state
                for env in tail:
                    state = engine.evolve(state, to_event(env))
                return Loaded(record, engine, record.version, head, state), prior
        return self._load(match_id, record=record), prior

    def _keep(self, loaded: Loaded) -> None:
        """Give ``loaded.state`` (exactly the fold at ``loaded.version``) to the fold cache.
        The caller must not touch the state afterwards."""
        self.folds.put(loaded.record.match_id, CachedFold(loaded.version, loaded.head_hash,
                                                          loaded.record.game, loaded.state,
                                                          loaded.record))

    def _claimed(self, match_id: str) -> set[int]:
        return {int(s) for s in self.redis.hkeys(self.keys.tokens(match_id))}

    def _checked_seat(self, loaded: Loaded, seat: Any) -> int:
        """:meth:`_check_seat` for a held fold: it goes back to the cache before raising."""
        try:
            return self._check_seat(loaded.record, seat)
        except errors.SeatNotFound:
            self._keep(loaded)
            raise

    def _check_seat(self, record: MatchRecord, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(record.seats):
            raise errors.SeatNotFound(seat)
        return seat

    # ------------------------------------------------------------------ catalogue
    def games(self) -> list[dict[str, Any]]:
        """Installed games: id, title, seat range, options schema, command schemas, bot
        levels and ``bot_options`` (level -> JSON Schema of its per-seat options)."""
        return [{"id": e.game_id, "title": e.title, "min_seats": e.min_seats,
                 "max_seats": e.max_seats, "options_schema": dict(e.options_schema),
                 "commands": {k: dict(v) for k, v in e.command_schemas.items()},
                 "bots": sorted(e.bots), "bot_options": bot_options_schemas(e)}
                for e in self.engines.values()]

    # ------------------------------------------------------------------ creation
    def _validate_seats(self, engine: Engine, seats: Any) -> list[dict[str, Any]]:
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise errors.InvalidSeats("seats must be a list of objects")
        if not engine.min_seats <= len(seats) <= engine.max_seats:
            raise errors.InvalidSeats(
                f"{engine.title} takes {engine.min_seats}-{engine.max_seats} seats, got {len(seats)}")
        out = []
        for index, item in enumerate(seats):
            kind = item.get("kind")
            if kind not in SEAT_KINDS:
                raise errors.InvalidSeats(f"seat {index}: kind must be one of {', '.join(SEAT_KINDS)}")
            entry: dict[str, Any] = {"seat": index, "kind": kind}
            if kind == "bot":
                level = item.get("bot", "random")
                if level not in engine.bots:
                    raise errors.InvalidSeats(
                        f"seat {index}: bot level must be one of {', '.join(sorted(engine.bots))}")
                entry["bot"] = level
                bot_options = self._seat_bot_options(engine, index, level, item)
                if bot_options:
                    entry["bot_options"] = bot_options
            elif "bot_options" in item:
                raise errors.InvalidSeatBotOptions(index, None, "Only a bot seat takes bot options.")
            name = item.get("name")
            if name is not None:
                if not isinstance(name, str) or not 1 <= len(name) <= 64:
                    raise errors.InvalidSeats(f"seat {index}: name must be 1-64 characters")
                entry["name"] = name
            out.append(entry)
        return out

    def _seat_bot_options(self, engine: Engine, index: int, level: str,
                          item: Mapping[str, Any]) -> dict[str, Any]:
        """The validated, normalised ``bot_options`` of bot seat ``index`` (``{}`` when none
        are given). The configured bot is built now (and cached), so options its factory
        refuses fail the creation too. Raises InvalidSeatBotOptions (400 validation_error)."""
        try:
            options = check_bot_options(bot_options_schema(engine, level),
                                        item.get("bot_options") or {})
            self.bot_cache.get(engine, level, options)
        except InvalidBotOptions as error:
            raise errors.InvalidSeatBotOptions(index, error.field, error.detail) from None
        return options

    def _seat_bot(self, engine: Engine, record: MatchRecord, seat: int) -> Any:
        """The bot playing bot seat ``seat``: its level configured by its stored options.

        Options stored under an older schema that the level no longer accepts fall back to
        the level's defaults (logged) rather than leaving the match without moves."""
        level = record.seats[seat]["bot"]
        try:
            return self.bot_cache.get(engine, level, record.bot_options(seat))
        except InvalidBotOptions as error:
            log.warning("match %s seat %s: stored bot options refused (%s); playing %s with "
                        "its defaults", record.match_id, seat, error.detail, level)
            return engine.bots[level]

    @staticmethod
    def _check_timeout(turn_timeout_s: Any) -> float | None:
        if turn_timeout_s is None:
            return None
        if isinstance(turn_timeout_s, bool) or not isinstance(turn_timeout_s, (int, float)) or \
                not math.isfinite(turn_timeout_s) or not 0 < turn_timeout_s <= MAX_TURN_TIMEOUT_S:
            raise errors.ServiceError("invalid_turn_timeout", 422,
                                      f"turn_timeout_s must be a number in (0, {MAX_TURN_TIMEOUT_S}].")
        return float(turn_timeout_s)

    def create_match(self, game: str, seats: list[dict], options: dict | None = None,
                     turn_timeout_s: float | None = None) -> dict[str, Any]:
        """Create a match: random 32-byte seed (its SHA-256 published), set-up events from
        ``engine.new_match(setup, derive_rng(seed, 0))``, one token per human seat.

        Raises UnknownGame, InvalidSeats, InvalidSeatBotOptions (400 ``validation_error``:
        ``bot_options`` on a seat that is not a bot, or options its level refuses),
        ``invalid_turn_timeout``, or the engine's InvalidCommand for bad options. Nothing
        is stored on an error. Tokens appear only in this answer.
        """
        engine = self._engine(game)
        seat_list = self._validate_seats(engine, seats)
        timeout = self._check_timeout(turn_timeout_s)
        if options is not None and not isinstance(options, dict):
            raise InvalidCommand("options must be an object")
        normalised = engine.validate_options(len(seat_list), options or {})
        seed = secrets.token_bytes(32)
        events = engine.new_match(Setup(len(seat_list), normalised), derive_rng(seed, 0))
        return self._start(engine, seat_list, normalised, timeout, seed, events=events)

    def _start(self, engine: Engine, seat_list: list[dict[str, Any]], options: Mapping[str, Any],
               timeout: float | None, seed: bytes, events=None, prefix=None,
               forked_from: Any = None) -> dict[str, Any]:
        """Store a new match whose log is ``events`` (set-up) or ``prefix`` (fork envelopes)."""
        match_id = uuid.uuid4().hex[:20]
        if prefix is None:
            envelopes = build_envelopes(events, 1, genesis_hash(match_id), "setup")
        else:
            envelopes = rechain(prefix, genesis_hash(match_id))
        state = None
        for env in envelopes:
            state = engine.evolve(state, to_event(env))
        tokens = {s["seat"]: new_token() for s in seat_list if s["kind"] == "human"}
        if tokens:
            self.redis.hset(self.keys.tokens(match_id),
                            mapping={str(s): token_digest(t) for s, t in tokens.items()})
        meta = {"game": engine.game_id, "seats": canonical_json(seat_list),
                "options": canonical_json(dict(options)), "seed": seed.hex(),
                "seed_commitment": seed_commitment(seed), "created_at": utc_iso(self.clock()),
                "turn_timeout_s": "" if timeout is None else repr(timeout),
                "forked_from": canonical_json(forked_from)}
        meta.update(self._head_fields(engine, state, envelopes))
        outcome = self.store.append(match_id, 0, envelopes, meta)
        if outcome.status != "ok":
            raise RuntimeError(f"match id collision for {match_id}")
        self.redis.zadd(self.keys.matches(), {match_id: time.time()})
        finished = engine.result(state) is not None
        if not finished:
            self.redis.sadd(self.keys.running(), match_id)
        record = self._record(match_id)
        self._after_append(record, engine, state, 0, len(envelopes), actor=None,
                           counted=["matches_created"])
        seats_out = []
        for s in seat_list:
            entry = dict(s)
            if s["seat"] in tokens:
                entry["token"] = tokens[s["seat"]]
            seats_out.append(entry)
        return {"match_id": match_id, "game": engine.game_id, "version": len(envelopes),
                "seed_commitment": meta["seed_commitment"], "seats": seats_out,
                "turn_timeout_s": timeout}

    @staticmethod
    def _head_fields(engine: Engine, state: Any, envelopes: list[dict[str, Any]]) -> dict[str, str]:
        result = engine.result(state)
        return {"head_hash": envelopes[-1]["hash"],
                "pending": dumps({str(k): v for k, v in engine.pending(state).items()}),
                "status": "running" if result is None else "finished",
                "result": dumps(result)}

    def join(self, match_id: str, seat: int, name: str | None = None) -> dict[str, Any]:
        """Claim an ``open`` seat: returns ``{"seat", "token"}`` (token shown once).
        Raises SeatNotFound, SeatTaken (claimed already, human or bot seat)."""
        record = self._record(match_id)
        seat = self._check_seat(record, seat)
        if name is not None and (not isinstance(name, str) or not 1 <= len(name) <= 64):
            raise errors.InvalidSeats("name must be 1-64 characters")
        if record.seats[seat]["kind"] != "open":
            raise errors.SeatTaken(seat)
        token = new_token()
        if not self.redis.hsetnx(self.keys.tokens(match_id), str(seat), token_digest(token)):
            raise errors.SeatTaken(seat)
        if name:
            self.redis.hset(self.keys.meta(match_id), f"name:{seat}", name)
        return {"seat": seat, "token": token}

    def authenticate(self, match_id: str, token: str) -> int:
        """The seat owning ``token`` (constant-time compare of SHA-256 digests).
        Raises MatchNotFound or InvalidToken."""
        if not isinstance(match_id, str):
            raise errors.MatchNotFound(str(match_id))
        if isinstance(token, str) and token:
            cached = self.token_digests.get(match_id)
            seat = find_seat(cached, token) if cached else None
            if seat is not None:   # tokens are never revoked: a cached digest stays valid
                return seat
        pipe = self.redis.pipeline(transaction=False)
        pipe.hexists(self.keys.meta(match_id), "game")
        pipe.hgetall(self.keys.tokens(match_id))
        exists, raw = pipe.execute()
        if not exists:
            raise errors.MatchNotFound(match_id)
        if not isinstance(token, str) or not token:
            raise errors.InvalidToken()
        digests = {int(k): v for k, v in raw.items()}
        self.token_digests.set(match_id, digests)
        seat = find_seat(digests, token)
        if seat is None:
            raise errors.InvalidToken()
        return seat

    # ------------------------------------------------------------------ reading
    def _deadlines(self, match_id: str) -> dict[int, dict[str, Any]]:
        raw = self.redis.hgetall(self.keys.deadlines(match_id))
        return {int(k): json.loads(v) for k, v in raw.items()}

    def match_view(self, match_id: str, viewer: int | None) -> dict[str, Any]:
        """The match as ``viewer`` (seat or ``None`` = spectator) may see it now."""
        loaded, _ = self._head(match_id)
        record, engine = loaded.record, loaded.engine
        if viewer is not None:
            self._checked_seat(loaded, viewer)
        result = engine.result(loaded.state)
        pending = {str(k): v for k, v in engine.pending(loaded.state).items()}
        view = engine.view(loaded.state, viewer)
        self._keep(loaded)   # only after the engine calls succeeded (read-only calls)
        has_open = any(s["kind"] == "open" for s in record.seats)
        out: dict[str, Any] = {
            "match_id": match_id, "game": record.game, "version": loaded.version,
            "status": "finished" if result is not None else "running",
            "seats": record.public_seats(self._claimed(match_id) if has_open else set()),
            "pending": pending, "view": view, "result": result,
            "seed_commitment": record.seed_commitment, "turn_timeout_s": record.turn_timeout_s}
        if result is not None:
            out["seed"] = record.seed.hex()
        if record.forked_from:
            out["forked_from"] = record.forked_from
        # deadline records exist only for timed matches (_start_deadline)
        running_deadlines = self._deadlines(match_id) if record.turn_timeout_s else {}
        deadlines = {str(s): d["deadline"] for s, d in running_deadlines.items()
                     if str(s) in out["pending"]}
        if deadlines and result is None:
            out["deadlines"] = deadlines
            mine = deadlines.get(str(viewer)) if viewer is not None else None
            out["deadline"] = mine or min(deadlines.values())
        return out

    def legal_actions(self, match_id: str, seat: int) -> dict[str, Any]:
        """``{"version", "actions"}``: every command ``seat`` may send now."""
        loaded, _ = self._head(match_id)
        seat = self._checked_seat(loaded, seat)
        actions = loaded.engine.legal_actions(loaded.state, seat)
        self._keep(loaded)
        return {"version": loaded.version, "actions": actions}

    def _redacted(self, engine: Engine, envelopes, viewer: int | None, state: Any) -> tuple[list, Any]:
        """Fold ``envelopes`` into ``state``; return their redacted copies for ``viewer``
        (``data`` from ``engine.redact``; ``type`` from the engine's optional
        ``redact_type``, see ``domain.engine.redacted_type``)."""
        from domain.engine import redacted_type

        out = []
        for env in envelopes:
            event = to_event(env)
            state = engine.evolve(state, event)
            copy = public_envelope(env)
            copy["type"] = redacted_type(engine, event, viewer, state)
            copy["data"] = engine.redact(event, viewer, state)
            out.append(copy)
        return out, state

    def events(self, match_id: str, viewer: int | None, after: int = 0, wait_s: float = 0,
               limit: int = 500) -> dict[str, Any]:
        """Events after version ``after`` redacted for ``viewer``; long-polls up to
        ``wait_s`` seconds (capped at 60) until one exists. ``{"version", "events"}``."""
        record = self._record(match_id)
        if viewer is not None:
            self._check_seat(record, viewer)
        after = max(0, int(after))
        limit = max(1, min(int(limit), 1000))
        if record.version <= after and wait_s and wait_s > 0:
            self.store.wait_after(match_id, after, min(float(wait_s), 60.0))
            record = self._record(match_id)
        if record.version <= after:
            return {"version": record.version, "events": []}
        base = self._load(match_id, upto=after, record=record)
        envelopes = self.store.read(match_id, after=after, limit=limit)
        redacted, _ = self._redacted(base.engine, envelopes, viewer, base.state)
        return {"version": record.version, "events": redacted}

    def state_at(self, match_id: str, viewer: int | None, version: int) -> dict[str, Any]:
        """``{"version", "view"}`` at a past ``version``: anyone once finished; while
        running only a seat, for its own view (Forbidden otherwise)."""
        record = self._record(match_id)
        if viewer is not None:
            self._check_seat(record, viewer)
        if isinstance(version, bool) or not isinstance(version, int) or \
                not 1 <= version <= record.version:
            raise errors.VersionOutOfRange(version, record.version)
        if not record.finished and viewer is None:
            raise errors.Forbidden("Past states of a running match are shown only to its seats.")
        loaded = self._load(match_id, upto=version, record=record)
        return {"match_id": match_id, "version": version,
                "view": loaded.engine.view(loaded.state, viewer),
                "pending": {str(k): v for k, v in loaded.engine.pending(loaded.state).items()}}

    def export(self, match_id: str) -> dict[str, Any]:
        """The full log with commands and the revealed seed; MatchRunning before the end."""
        record = self._record(match_id)
        if not record.finished:
            raise errors.MatchRunning()
        envelopes = self.store.read(match_id, upto=record.version)
        return export_log(match_id, record.game, record.public_seats(self._claimed(match_id)),
                          record.options, record.seed, record.seed_commitment, envelopes,
                          record.forked_from)

    def verify(self, log_doc: dict) -> dict[str, Any]:
        """Verify an exported log (see :func:`service.verify.verify_log`).
        Raises InvalidLog when ``log_doc`` is not an object."""
        if not isinstance(log_doc, dict):
            raise errors.InvalidLog("a log must be a JSON object")
        return verify_log(log_doc, self.engines)

    def fork(self, match_id: str, version: int, seats: list[dict] | None = None) -> dict[str, Any]:
        """A new match whose log is the first ``version`` events of a finished match,
        re-chained under a new id, with the same seed; it continues from there. Forks are
        open information by design (analysis): the original's export revealed that seed, so
        anyone holding it can compute the fork's hidden cards and future draws.

        ``seats`` defaults to the original seat kinds (new tokens). Raises MatchRunning,
        VersionOutOfRange (before the end of set-up or past the end), InvalidSeats.
        """
        record = self._record(match_id)
        if not record.finished:
            raise errors.MatchRunning()
        engine = self._engine(record.game)
        envelopes = self.store.read(match_id, upto=record.version)
        setup_len = sum(1 for e in envelopes if e.get("cause") == "setup")
        if isinstance(version, bool) or not isinstance(version, int) or \
                not setup_len <= version <= record.version:
            raise errors.VersionOutOfRange(version, record.version)
        if version < record.version and "command" not in envelopes[version]:
            raise errors.ServiceError("not_a_batch_boundary", 422,
                                      f"Version {version} is inside one command's events; "
                                      "fork at the last event of a command.")
        if seats is None:
            seat_list = [{k: v for k, v in s.items() if k != "name"} for s in record.seats]
        else:
            seat_list = self._validate_seats(engine, seats)
            if len(seat_list) != len(record.seats):
                raise errors.InvalidSeats(f"a fork keeps the {len(record.seats)} seats")
        return self._start(engine, seat_list, record.options, record.turn_timeout_s, record.seed,
                           prefix=envelopes[:version],
                           forked_from={"match_id": match_id, "version": version})

    # ------------------------------------------------------------------ acting
    def act(self, match_id: str, seat: int, command: dict, idempotency_key: str | None = None,
            expected_version: int | None = None, *, cause: str = "player",
            idem_field: str | None = None) -> dict[str, Any]:
        """Decide ``command`` for ``seat`` and append its events atomically.

        Returns ``{"version", "events" (redacted for seat), "replayed"}``. A repeated
        ``idempotency_key`` returns the first answer with ``replayed: true`` and appends
        nothing. Without ``expected_version`` a lost append race is re-decided on the new
        state (``append_attempts`` times, then ``busy``); with a stale one VersionConflict.
        Raises RuleError (domain), SeatNotFound, IdempotencyKeyReused, VersionConflict.
        """
        bad_command = not isinstance(command, dict) or not isinstance(command.get("type"), str)
        bad_key = False
        if idempotency_key is not None and idem_field is None:
            bad_key = not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 255
            if not bad_key:
                idem_field = self.keys.idem_field(seat, idempotency_key)
        fingerprint = "" if bad_command else sha256_hex(canonical_json(command))
        if not (bad_command or bad_key):
            answer = self._act_on_cached_fold(match_id, seat, command, idem_field, fingerprint,
                                              expected_version, cause)
            if answer is not None:
                return answer
        for _attempt in range(self.append_attempts):
            # errors keep their order: match, seat, command, Idempotency-Key
            loaded, prior = self._head(match_id, None if bad_command or bad_key else idem_field)
            record, engine = loaded.record, loaded.engine
            seat = self._checked_seat(loaded, seat)
            if bad_command or bad_key:
                self._keep(loaded)
                if bad_command:
                    self.counters.rejected("invalid_command")
                    raise InvalidCommand("A command is an object with a string 'type'.")
                raise InvalidCommand("Idempotency-Key must be 1-255 characters.")
            if prior is not None:
                self._keep(loaded)
                return self._replay(prior, fingerprint)
            if expected_version is not None and loaded.version != expected_version:
                self._keep(loaded)
                self.counters.rejected("version_conflict")
                raise errors.VersionConflict(expected_version, loaded.version)
            # From here the held state is not given back unless the append succeeds: a
            # failed decide or a lost race never leaves a touched state in the cache.
            try:
                if engine.result(loaded.state) is not None:
                    raise MatchFinished()
                events = engine.decide(loaded.state, seat, command, derive_rng(record.seed, loaded.version))
            except RuleError as exc:
                self.counters.rejected(exc.code)
                raise
            if not events:
                self._keep(loaded)
                return {"version": loaded.version, "events": [], "replayed": False}
            answer, current = self._append_batch(match_id, loaded, seat, command, events, cause,
                                                 idem_field, fingerprint)
            if answer is not None:
                return answer
            if expected_version is not None:
                self.counters.rejected("version_conflict")
                raise errors.VersionConflict(expected_version, current)
        raise errors.TooManyConflicts(self.append_attempts)

    def _act_on_cached_fold(self, match_id: str, seat: Any, command: dict,
                            idem_field: str | None, fingerprint: str,
                            expected_version: int | None, cause: str) -> dict[str, Any] | None:
        """The fast path of :meth:`act`: decide on this process's cached fold and append
        conditionally on its version *and* head hash, without reading the store first
        (one round trip instead of two).

        Returns the answer (accepted, or an idempotent replay found by the append script),
        or ``None`` when the verified path must run: no cached fold, a seat or expected
        version the fold cannot vouch for, a rejected command or an empty batch (a rule
        error is only ever answered from a fold just read from the store), or an append
        refused because the fold is stale. A fold touched by ``decide``/``evolve`` goes back
        to the cache only after its append succeeded.
        """
        entry = self.folds.take(match_id)
        if entry is None:
            return None
        record = entry.record
        if record is None or record.game != entry.game or \
                (expected_version is not None and expected_version != entry.version) or \
                isinstance(seat, bool) or not isinstance(seat, int) or \
                not 0 <= seat < len(record.seats):
            self.folds.put(match_id, entry)
            return None
        engine = self._engine(record.game)
        try:
            if engine.result(entry.state) is not None:
                self.folds.put(match_id, entry)
                return None
            events = engine.decide(entry.state, seat, command, derive_rng(record.seed, entry.version))
        except RuleError:
            return None
        if not events:
            self.folds.put(match_id, entry)
            return None
        held = Loaded(record, engine, entry.version, entry.head_hash, entry.state)
        # None when another process appended first: the verified path reads the store
        # and decides again
        return self._append_batch(match_id, held, seat, command, events, cause, idem_field,
                                  fingerprint)[0]

    def _append_batch(self, match_id: str, loaded: Loaded, seat: int, command: dict,
                      events: list, cause: str, idem_field: str | None,
                      fingerprint: str) -> tuple[dict[str, Any] | None, int | None]:
        """Append the batch ``events`` that ``command`` of ``seat`` produced on ``loaded``
        (the fold at ``loaded.version`` / ``loaded.head_hash``), shared by both paths of
        :meth:`act`.

        Builds the envelopes (versions ``loaded.version + 1..``, chained on the head hash,
        one ``command_id``; ``command``/``actor`` on the first), folds them into
        ``loaded.state`` while redacting them for ``seat``, and appends them in one
        conditional script call: on the version *and* the head hash, recording
        ``{"fingerprint", "answer"}`` under ``idem_field`` in the same transaction.

        Returns ``(answer, None)`` when appended (counters, snapshot, running index, turn
        jobs and the fold cache are updated by :meth:`_appended`) or when the append script
        found an earlier answer under ``idem_field`` (``replayed: true``; nothing appended);
        ``(None, current_version)`` when the store moved on (counted as an
        ``append_conflicts``; the caller retries or answers 409). Raises
        IdempotencyKeyReused when the recorded answer is for another command. The touched
        state is never given back to the cache unless the append succeeded.
        """
        record, engine = loaded.record, loaded.engine
        envelopes = build_envelopes(events, loaded.version + 1, loaded.head_hash, cause,
                                    uuid.uuid4().hex, command, seat, utc_iso(self.clock()))
        redacted, state = self._redacted(engine, envelopes, seat, loaded.state)
        answer = {"version": envelopes[-1]["version"], "events": redacted, "replayed": False}
        outcome = self.store.append(match_id, loaded.version, envelopes,
                                    self._head_fields(engine, state, envelopes),
                                    idem_field, {"fingerprint": fingerprint, "answer": answer},
                                    expected_head=loaded.head_hash)
        if outcome.status == "replayed":
            return self._replay(outcome.answer, fingerprint), None
        if outcome.status != "ok":
            self.counters.incr("append_conflicts")
            return None, outcome.version
        self._appended(record, engine, state, loaded.version, envelopes, seat, cause)
        return answer, None

    def _appended(self, record: MatchRecord, engine: Engine, state: Any, old_version: int,
                  envelopes: list[dict[str, Any]], seat: int, cause: str) -> None:
        """Book-keeping after a command's batch was appended: counters, snapshot, running
        index and turn jobs (:meth:`_after_append`), then the new fold into the cache."""
        counted = ["actions_accepted"]
        if cause == "bot":
            counted.append("bot_turns")
        elif cause == "timeout":
            counted.append("timeouts")
        new_version = envelopes[-1]["version"]
        self._after_append(record, engine, state, old_version, new_version, actor=seat,
                           counted=counted)
        self._keep(Loaded(record, engine, new_version, envelopes[-1]["hash"], state))

    def _replay(self, prior: Mapping[str, Any], fingerprint: str) -> dict[str, Any]:
        if prior.get("fingerprint") != fingerprint:
            self.counters.rejected("idempotency_key_reused")
            raise errors.IdempotencyKeyReused()
        self.counters.incr("idempotent_replays")
        return {**prior["answer"], "replayed": True}

    # ------------------------------------------------------------------ after an append
    def _after_append(self, record: MatchRecord, engine: Engine, state: Any, old_version: int,
                      new_version: int, actor: int | None, counted: tuple | list = ()) -> None:
        """Count the append (``counted``: :data:`service.metrics.COUNTERS` names), snapshot
        when due, maintain the running and awaiting indexes (one pipelined round trip), then
        schedule bot turns and timeouts.

        Failures here never undo the append: reconcile re-derives missing jobs (and a full
        reconcile pass puts a match missing from the awaiting index back).
        """
        match_id = record.match_id
        finished = engine.result(state) is not None
        pending = {} if finished else engine.pending(state)
        pipe = self.redis.pipeline(transaction=False)
        for name in counted:
            self.counters.incr(name, pipe=pipe)
        if self.snapshots.due(old_version, new_version):
            self.snapshots.save(match_id, new_version, record.game, engine.schema_version,
                                engine.dump_state(state), pipe=pipe)
        if finished:
            pipe.srem(self.keys.running(), match_id)
        if self._awaits_worker(record, pending):
            pipe.sadd(self.keys.awaiting(), match_id)
        else:
            pipe.srem(self.keys.awaiting(), match_id)
        pipe.execute()
        try:
            self._schedule(record, pending, new_version, actor)
        except Exception:  # noqa: BLE001 - the queue being down must not fail the command
            log.exception("scheduling turn jobs for %s failed; reconcile will retry", match_id)

    def _schedule(self, record: MatchRecord, pending: Mapping[int, str], version: int,
                  actor: int | None) -> None:
        match_id = record.match_id
        # deadline records exist only for timed matches (see _start_deadline)
        deadlines = self._deadlines(match_id) if record.turn_timeout_s else {}
        for seat, item in deadlines.items():
            if seat == actor or seat not in pending:
                self.redis.hdel(self.keys.deadlines(match_id), str(seat))
                if self.scheduler is not None:
                    self.scheduler.cancel(self.keys.timeout_job_id(match_id, seat, item["version"]))
        if self.scheduler is None:
            return
        for seat in sorted(pending):
            if record.is_bot(seat):
                self.scheduler.enqueue_bot_turn(match_id, version, seat)
            elif record.turn_timeout_s and (seat == actor or seat not in deadlines):
                self._start_deadline(match_id, seat, version, record.turn_timeout_s)

    def _start_deadline(self, match_id: str, seat: int, version: int, timeout_s: float) -> None:
        deadline = self.clock() + timedelta(seconds=timeout_s)
        entry = canonical_json({"version": version, "deadline": utc_iso(deadline)})
        self.redis.hset(self.keys.deadlines(match_id), str(seat), entry)
        self.scheduler.schedule_turn_timeout(match_id, seat, version, deadline)

    # ------------------------------------------------------------------ worker entry points
    def run_bot_turn(self, match_id: str, version: int, seat: int | None = None) -> dict[str, Any]:
        """Let the bot of ``seat`` (default: the first pending bot seat) decide at ``version``;
        the bot is the seat's level configured by its ``bot_options`` (cached per process).

        A no-op (``{"status": "stale"}``) when the match moved past ``version``, finished,
        or the seat has nothing pending; the append uses ``expected_version=version`` so a
        duplicate job can never decide twice. Returns ``{"status": "acted", "seat", "version"}``.
        """
        record = self._record(match_id)
        if record.finished or record.version != version:
            return {"status": "stale"}
        loaded, _ = self._head(match_id)
        record = loaded.record
        if loaded.version != version:
            self._keep(loaded)
            return {"status": "stale"}
        pending = loaded.engine.pending(loaded.state)
        candidates = [seat] if seat is not None else sorted(pending)
        chosen = None
        for s in candidates:
            if s in pending and 0 <= s < len(record.seats) and record.is_bot(s):
                bot = self._seat_bot(loaded.engine, record, s)
                chosen = s, bot.choose(loaded.state, s, bot_rng(record.seed, version, s))
                break
        self._keep(loaded)   # bots read the state only (what view() shows the seat)
        if chosen is None:
            return {"status": "stale"}
        s, command = chosen
        try:
            answer = self.act(match_id, s, command, expected_version=version, cause="bot")
        except errors.VersionConflict:
            return {"status": "stale"}
        return {"status": "acted", "seat": s, "version": answer["version"]}

    def run_turn_timeout(self, match_id: str, seat: int, version: int) -> dict[str, Any]:
        """Decide for a seat whose deadline (started at ``version``) passed, with the
        engine's ``timeout_bot``; events are recorded with cause ``timeout``.

        Idempotent: a stale job (seat acted since, deadline cancelled/replaced, match over)
        or a second run of the same job does nothing. A job that fires before its
        deadline does nothing (``"early"``; reconcile re-schedules it).
        """
        for _attempt in range(self.append_attempts):
            record = self._record(match_id)
            if record.finished or not 0 <= seat < len(record.seats) or record.is_bot(seat):
                return {"status": "stale"}
            raw = self.redis.hget(self.keys.deadlines(match_id), str(seat))
            entry = json.loads(raw) if raw else None
            if entry is None or entry["version"] != version:
                return {"status": "stale"}
            if datetime.fromisoformat(entry["deadline"]) > self.clock():
                return {"status": "early"}
            loaded, _ = self._head(match_id)
            pending = loaded.engine.pending(loaded.state)
            command = None
            if seat in pending:
                bot = loaded.engine.bots[loaded.engine.timeout_bot]
                command = bot.choose(loaded.state, seat, bot_rng(record.seed, loaded.version, seat))
            self._keep(loaded)   # read only (pending, the bot's view)
            if command is None:
                return {"status": "stale"}
            acted = any(e.get("actor") == seat and "command" in e
                        for e in self.store.read(match_id, after=version, upto=loaded.version))
            if acted:
                return {"status": "stale"}
            try:
                answer = self.act(match_id, seat, command, expected_version=loaded.version,
                                  cause="timeout", idem_field=self.keys.timeout_idem_field(seat, version))
            except errors.VersionConflict:
                continue
            except (NotYourTurn, MatchFinished):
                return {"status": "stale"}
            if answer.get("replayed"):
                return {"status": "stale"}
            return {"status": "acted", "seat": seat, "version": answer["version"]}
        return {"status": "busy"}

    @staticmethod
    def _awaits_worker(record: MatchRecord, pending: Mapping[int, Any]) -> bool:
        """True when a pending decision is a worker's job: a bot seat's turn, or any seat
        of a timed match (its turn timeout). Untimed human seats wait for their players."""
        return any(record.is_bot(seat) for seat in pending) or \
            bool(record.turn_timeout_s and pending)

    def reconcile(self, full: bool | None = None) -> dict[str, int]:
        """Re-derive lost work of the matches waiting for a worker: a pending bot seat whose
        job is missing or dead (e.g. its worker was killed) is re-enqueued; a pending human
        seat of a timed match gets its deadline record and job back.

        A pass scans the ``awaiting`` index (matches with a pending bot seat or a timed
        seat, kept by every append), so idle human-only matches cost nothing. The index is
        a hint: an append whose process died before it updated the index (or two appends
        whose index updates crossed) can leave a match out. So a *full* pass scans every
        running match and puts those that await a worker back into the index; ``full``
        ``None`` (the reconcile loops) makes a pass full when the last full pass of this
        service is ``reconcile_full_s`` seconds old or there was none. Finished or vanished
        matches leave both indexes. Returns ``{"checked": running matches examined,
        "requeued": jobs or deadlines re-created}``.
        """
        checked = requeued = 0
        if self.scheduler is None:
            return {"checked": 0, "requeued": 0}
        now = time.monotonic()
        if full is None:
            full = self._last_full_reconcile is None or \
                now - self._last_full_reconcile >= self.reconcile_full_s
        if full:
            self._last_full_reconcile = now
        source = self.keys.running() if full else self.keys.awaiting()
        for match_id in sorted(self.redis.smembers(source)):
            try:
                record = self._record(match_id)
            except errors.MatchNotFound:
                self._forget_running(match_id)
                continue
            if record.finished:
                self._forget_running(match_id)
                continue
            checked += 1
            if not self._awaits_worker(record, record.pending):
                continue   # a stale hint is left to the match's next append
            if full:
                self.redis.sadd(self.keys.awaiting(), match_id)
            deadlines = self._deadlines(match_id) if record.turn_timeout_s else {}
            for seat in sorted(record.pending):
                if record.is_bot(seat):
                    requeued += self.scheduler.revive_bot_turn(match_id, record.version, seat)
                elif record.turn_timeout_s:
                    entry = deadlines.get(seat)
                    if entry is None:
                        self._start_deadline(match_id, seat, record.version, record.turn_timeout_s)
                        requeued += 1
                    else:
                        requeued += self.scheduler.revive_turn_timeout(
                            match_id, seat, entry["version"], datetime.fromisoformat(entry["deadline"]))
        if requeued:
            self.counters.incr("reconcile_requeued", requeued)
        return {"checked": checked, "requeued": requeued}

    def _forget_running(self, match_id: str) -> None:
        """Drop a finished (or vanished) match from the running and awaiting indexes."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.srem(self.keys.running(), match_id)
        pipe.srem(self.keys.awaiting(), match_id)
        pipe.execute()

    # ------------------------------------------------------------------ operations
    def health(self) -> dict[str, Any]:
        """``{"status": "ok"|"degraded", "store": bool, "queue": bool}`` (pings both Redis)."""
        def ping(conn) -> bool:
            try:
                return bool(conn.ping())
            except Exception:  # noqa: BLE001 - any failure means "down"
                return False

        store = ping(self.redis)
        queue = ping(self.scheduler.connection) if self.scheduler is not None else False
        return {"status": "ok" if store and (queue or self.scheduler is None) else "degraded",
                "store": store, "queue": queue}

    def metrics(self) -> str:
        """Prometheus text: matches created, actions accepted/rejected by code, append
        conflicts, bot turns, timeouts, reconcile re-queues, running matches."""
        return self.counters.render(int(self.redis.scard(self.keys.running())))
