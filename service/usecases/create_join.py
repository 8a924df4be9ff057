"""Use cases that make a match and its seats: create, fork, join an open seat, and
authenticate a seat token.

A new match gets a random 32-byte seed (its SHA-256 published at once), set-up events from
``engine.new_match``, one token per human seat (only digests stored, tokens shown once).

With an ``Idempotency-Key`` (create, fork, join) a repeated request answers the first
answer again, the same tokens included (derived from the key, never stored):
:mod:`service.usecases.idempotency`.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from domain.engine import (
    Engine,
    InvalidBotOptions,
    InvalidCommand,
    MatchFinished,
    Setup,
    bot_options_schema,
    check_bot_options,
    derive_rng,
)
from service import errors
from service.log.codec import LOG_FORMAT, canonical_json, genesis_hash, seed_commitment
from service.log.envelopes import (
    SEAT_JOINED,
    build_envelopes,
    fold_envelope,
    is_platform,
    rechain,
    utc_iso,
)
from service.log.match_record import MatchRecord
from service.log.roster import join_envelope, roster_of
from service.ratings.families import UNRATED_LEVELS
from service.store.quotas import BotQuotas
from service.store.write_batch import WriteBatch
from service.tokens import find_seat, new_token, token_digest
from service.usecases.after_append import AfterAppend
from service.usecases.context import (
    Loaded,
    MatchContext,
    RequestReads,
    check_seat,
    head_facts,
    head_fields,
)
from service.usecases.idempotency import (
    IdempotencyStore,
    Ticket,
    check_secret_key,
    fingerprint,
    with_tokens,
)
from service.usecases.player_names import name_key

log = logging.getLogger(__name__)

SEAT_KINDS = ("human", "bot", "open")
MAX_TURN_TIMEOUT_S = 7 * 24 * 3600


def _already_seated() -> errors.ServiceError:
    """409 ``player_already_seated``: one player holds at most one seat of a match."""
    return errors.ServiceError(
        "player_already_seated", 409, "This player holds a seat of this match already."
    )


def seat_names(record: MatchRecord) -> dict[int, str]:
    """seat -> name of the seats of ``record`` that carry a name (given at creation or
    by a join)."""
    return {s["seat"]: n for s in record.public_seats(set()) if (n := s.get("name"))}


def same_name(named: Mapping[int, str], seat: int, name: str) -> int | None:
    """The seat among ``named`` (seat -> name) other than ``seat`` whose name is ``name``
    by :func:`service.usecases.player_names.name_key` (``Ann``, `` ann`` and ``Аnn`` with
    a Cyrillic ``А`` are one name), or ``None``."""
    key = name_key(name)
    return next((s for s, n in sorted(named.items()) if s != seat and name_key(n) == key), None)


def check_timeout(turn_timeout_s: Any) -> float | None:
    """``turn_timeout_s`` in seconds as a number (``None``: untimed): an ``int`` when its
    value is integral (``300.0`` -> ``300``: what any JSON reader sees), else a float; raises
    ``invalid_turn_timeout``
    (422) unless it is a number in ``(0, MAX_TURN_TIMEOUT_S]``."""
    if turn_timeout_s is None:
        return None
    if (
        isinstance(turn_timeout_s, bool)
        or not isinstance(turn_timeout_s, (int, float))
        or not math.isfinite(turn_timeout_s)
        or not 0 < turn_timeout_s <= MAX_TURN_TIMEOUT_S
    ):
        raise errors.ServiceError(
            "invalid_turn_timeout",
            422,
            f"turn_timeout_s must be a number in (0, {MAX_TURN_TIMEOUT_S}].",
        )
    seconds = float(turn_timeout_s)
    return int(seconds) if seconds.is_integer() else seconds


def seats_at_fork(
    seats: list[dict[str, Any]], prefix: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The default seat list of a fork: the original's ``seats`` (as created: kind, bot
    level, bot options, name) with the names the seats had after the copied ``prefix``
    envelopes: an open seat claimed in the prefix (a ``SeatJoined`` envelope with a name)
    keeps its joiner's name. Kinds stay as created, so such a seat is open again in the
    fork (its claim's token belonged to the original); a claim after the fork's version
    gives no name."""
    joined = {
        env["data"].get("seat"): env["data"].get("name")
        for env in prefix
        if env.get("type") == SEAT_JOINED and isinstance(env.get("data"), dict)
    }
    out = []
    for item in seats:
        entry = {k: v for k, v in item.items() if k != "player"}  # a fork binds nobody
        name = joined.get(item["seat"])
        if name:
            entry["name"] = name
        out.append(entry)
    return out


def bind_creator(
    seats: list[dict[str, Any]], player_id: str | None, rated: bool
) -> list[dict[str, Any]]:
    """``seats`` with the first human seat bound to the creator's ``player_id`` (``player``
    in its entry); for a ``rated`` match also checks that there is a creator with a human
    seat of its own and no other human seat (those are open seats joined with player
    keys, or bots), and that every bot seat is a rated level at its default strength.
    Raises RatedMatchRefused: ``rated_match_refused`` (no player key, two human seats),
    ``rated_match_without_player`` (no human seat: bots alone would only move each other's
    calibrated ratings), ``rated_bot_options`` (a bot seat with ``bot_options``: the level
    is rated as calibrated, with its default options), ``unrated_bot_level`` (a level of
    :data:`service.ratings.families.UNRATED_LEVELS`, ``idle``)."""
    humans = [s for s in seats if s["kind"] == "human"]
    if rated and player_id is None:
        raise errors.RatedMatchRefused(
            "rated_match_refused",
            "A rated match is created with a player key (Authorization: Bearer <player key>).",
        )
    if rated and len(humans) > 1:
        raise errors.RatedMatchRefused(
            "rated_match_refused",
            "A rated match has one human seat at creation (the "
            "creator's); other players join open seats.",
        )
    if rated:
        check_rated_seats(seats, humans)
    if player_id is not None and humans:
        humans[0]["player"] = player_id
    return seats


def check_rated_seats(seats: list[dict[str, Any]], humans: list[dict[str, Any]]) -> None:
    """The seats a rated match may not have at creation (see :func:`bind_creator`):
    ``humans`` empty, a bot seat with ``bot_options`` or of an unrated level. Raises
    RatedMatchRefused with the finer codes (extra ``seat`` for a bot seat)."""
    if not humans:
        raise errors.RatedMatchRefused(
            "rated_match_without_player",
            "A rated match has the creator's human seat: a match of bots alone is not rated.",
        )
    for entry in seats:
        if entry["kind"] != "bot":
            continue
        if entry["bot"] in UNRATED_LEVELS:
            raise errors.RatedMatchRefused(
                "unrated_bot_level",
                f"Seat {entry['seat']}: the bot level {entry['bot']!r} is not rated; "
                "choose another level or play a casual match.",
                seat=entry["seat"],
            )
        if entry.get("bot_options"):
            raise errors.RatedMatchRefused(
                "rated_bot_options",
                f"Seat {entry['seat']}: a rated bot plays with its level's default options "
                "(the strength its rating was calibrated at); leave bot_options out or play "
                "a casual match.",
                seat=entry["seat"],
            )


class CreateJoin:
    """create_match, fork, join, authenticate (see module docstring)."""

    def __init__(
        self,
        ctx: MatchContext,
        after_append: AfterAppend,
        quotas: BotQuotas | None = None,
        idem: IdempotencyStore | None = None,
    ):
        self.ctx = ctx
        self.after_append = after_append
        self.quotas = quotas or BotQuotas(ctx.stores.bot_matches)
        self.idem = idem or IdempotencyStore(ctx.stores.redis, ctx.stores.keys, 3600.0)
        self.players: Any = None  # service.usecases.players.Players (set by the facade)

    # ------------------------------------------------------------------ seats
    def validate_seats(self, engine: Engine, seats: Any) -> list[dict[str, Any]]:
        """The normalised seat list ``[{"seat", "kind", "bot"?, "bot_options"?, "name"?}]``.
        Raises InvalidSeats, InvalidSeatBotOptions."""
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise errors.InvalidSeats("seats must be a list of objects")
        if not engine.min_seats <= len(seats) <= engine.max_seats:
            raise errors.InvalidSeats(
                f"{engine.title} takes {engine.min_seats}-{engine.max_seats} seats, got {len(seats)}"
            )
        out = []
        for index, item in enumerate(seats):
            kind = item.get("kind")
            if kind not in SEAT_KINDS:
                raise errors.InvalidSeats(
                    f"seat {index}: kind must be one of {', '.join(SEAT_KINDS)}"
                )
            entry: dict[str, Any] = {"seat": index, "kind": kind}
            if kind == "bot":
                level = item.get("bot", "random")
                if level not in engine.bots:
                    raise errors.InvalidSeats(
                        f"seat {index}: bot level must be one of {', '.join(sorted(engine.bots))}"
                    )
                entry["bot"] = level
                bot_options = self._seat_bot_options(engine, index, level, item)
                if bot_options:
                    entry["bot_options"] = bot_options
            elif "bot_options" in item:
                raise errors.InvalidSeatBotOptions(
                    index, None, "Only a bot seat takes bot options."
                )
            name = item.get("name")
            if name is not None:
                if not isinstance(name, str) or not 1 <= len(name) <= 64:
                    raise errors.InvalidSeats(f"seat {index}: name must be 1-64 characters")
                entry["name"] = name
            out.append(entry)
        return out

    def check_names(
        self, seats: list[dict[str, Any]], taken: Mapping[int, str] | None = None
    ) -> None:
        """Refuse a seat name that passes for someone it is not (a bot level, a game's
        own opponent, a participant's id, a registered player the seat is not bound to:
        :meth:`service.usecases.players.Players.check_seat_name`) or that another seat of
        the match carries (:func:`same_name`); ``seats``: entries with ``seat``, ``name``?
        and ``player``? (the player the seat is bound to); ``taken``: seat -> name of the
        match's seats already named (a join's match). Raises SeatNameReserved,
        SeatNameTaken (422)."""
        named = dict(taken or {})
        for entry in seats:
            name = entry.get("name")
            if not name:
                continue
            if self.players is not None:
                self.players.check_seat_name(entry["seat"], name, entry.get("player"))
            other = same_name(named, entry["seat"], name)
            if other is not None:
                raise errors.SeatNameTaken(entry["seat"], name, other)
            named[entry["seat"]] = name

    def passing_names(
        self, seats: list[dict[str, Any]], taken: Mapping[int, str] | None = None
    ) -> list[dict[str, Any]]:
        """Copies of ``seats`` (entries as for :meth:`check_names`) with every name
        :meth:`check_names` would refuse left out, for seat names copied rather than given
        (a rematch's, a fork's default seats): a name that passes for someone it is not (a
        registered player's on a seat not bound to that player, a bot level, a label, a
        participant's id) or that an earlier seat of ``seats`` or one of ``taken`` (seat ->
        name) carries already. Such a seat is unnamed; nothing is raised."""
        kept = dict(taken or {})
        out = []
        for item in seats:
            entry = dict(item)
            name = entry.get("name")
            if name:
                try:
                    self.check_names([entry], kept)
                except (errors.SeatNameReserved, errors.SeatNameTaken):
                    del entry["name"]
                else:
                    kept[entry["seat"]] = name
            out.append(entry)
        return out

    def _seat_bot_options(
        self, engine: Engine, index: int, level: str, item: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The validated, normalised ``bot_options`` of bot seat ``index`` (``{}`` when none
        are given). The configured bot is built now (and cached), so options its factory
        refuses fail the creation too. Raises InvalidSeatBotOptions (400 validation_error)."""
        try:
            options = check_bot_options(
                bot_options_schema(engine, level), item.get("bot_options") or {}
            )
            self.ctx.bot_cache.get(engine, level, options)
        except InvalidBotOptions as error:
            raise errors.InvalidSeatBotOptions(index, error.field, error.detail) from None
        return options

    # ------------------------------------------------------------------ creation
    def create_match(
        self,
        game: str,
        seats: list[dict],
        options: dict | None = None,
        turn_timeout_s: float | None = None,
        *,
        unlisted: bool = False,
        spectators: bool = True,
        client: str | None = None,
        idempotency_key: str | None = None,
        player_id: str | None = None,
        rated: bool = False,
    ) -> dict[str, Any]:
        """Create a match: random 32-byte seed (its SHA-256 published), set-up events from
        ``engine.new_match(setup, derive_rng(seed, 0))``, one token per human seat. The
        first envelope carries the roster (:mod:`service.log.roster`). ``unlisted``: never in
        the lobby (reachable by id); ``spectators`` False: tokenless reads are 403 while it
        runs (public after the end, like the seed). ``client``: the outside client it is
        made for (the API's client key): the server's bot caps apply (:mod:`service.store.quotas`).

        Raises UnknownGame, InvalidSeats, InvalidSeatBotOptions (400 ``validation_error``:
        ``bot_options`` on a seat that is not a bot, or options its level refuses),
        ``invalid_turn_timeout``, the engine's InvalidCommand for bad options, and with a
        ``client`` BotOptionsCapped (422) / TooManyBotMatches (429). Nothing is stored on
        an error. Tokens appear only in this answer.

        ``player_id`` (the creator's player, from ``Authorization: Bearer <player key>``):
        the first human seat is bound to it (``player`` in its roster entry, log@3). ``rated``
        (issue 22): the match counts for the ratings; it needs ``player_id`` and at most
        that one human seat at creation (the others open, joined with player keys, or bots).
        Raises RatedMatchRefused (422).

        ``idempotency_key`` (at least 16 characters, else 400 ``validation_error``): a
        repeat with the same key and body answers the first answer (same match, same
        tokens) with ``replayed: true``; another body: IdempotencyKeyReused (422). Keyed
        answers carry ``replayed`` (:mod:`service.usecases.idempotency`).
        """
        engine = self.ctx.engine(game)
        seat_list = bind_creator(self.validate_seats(engine, seats), player_id, rated)
        self.check_names(seat_list)
        timeout = check_timeout(turn_timeout_s)
        if options is not None and not isinstance(options, dict):
            raise InvalidCommand("options must be an object")
        normalised = engine.validate_options(len(seat_list), options or {})
        start: dict[str, Any] = {
            "listed": not unlisted,
            "spectators": bool(spectators),
            "client": client,
        }
        if rated:
            start["extra_meta"] = {"rated": "1"}
        if idempotency_key is None:
            return self.start_fresh(engine, seat_list, normalised, timeout, **start)
        check_secret_key(idempotency_key)
        ticket = self.idem.new_match_ticket(
            ("create",),
            idempotency_key,
            fingerprint(
                {
                    "game": engine.game_id,
                    "seats": seat_list,
                    "options": normalised,
                    "turn_timeout_s": timeout,
                    **start,
                    "client": None,
                    "rated": bool(rated),
                }
            ),
            self.ctx.stores.new_match_id(),
        )
        return self._keyed_start(
            ticket,
            lambda: self.start_fresh(
                engine,
                seat_list,
                normalised,
                timeout,
                match_id=ticket.match_id,
                ticket=ticket,
                **start,
            ),
        )

    def _keyed_start(self, ticket: Ticket, start) -> dict[str, Any]:
        """A keyed create or fork: the recorded answer (tokens derived again, ``replayed``
        true) or ``start()``'s (``replayed`` false), storing the match under the ticket's
        match id; a racing repeat that stored it first is answered as a replay."""
        field = self.idem.answer_field(ticket)
        match_id = ticket.match_id
        assert match_id is not None  # a create or fork ticket names its match
        prior = self.idem.recorded(match_id, field)
        if prior is None:
            try:
                return {**start(), "replayed": False}
            except errors.MatchExists:
                prior = self.idem.recorded(match_id, field)
                if prior is None:
                    raise
        self.ctx.stores.metrics.incr("idempotent_replays")
        return {**with_tokens(prior, ticket), "replayed": True}

    def start_fresh(
        self,
        engine: Engine,
        seat_list: list[dict[str, Any]],
        options: Mapping[str, Any],
        timeout: float | None,
        **start: Any,
    ) -> dict[str, Any]:
        """A new match of validated ``seat_list`` / ``options`` with a fresh secret seed
        (creation and rematch); ``start``: keywords of :meth:`_start`."""
        seed = secrets.token_bytes(32)
        events = engine.new_match(Setup(len(seat_list), options), derive_rng(seed, 0))
        return self._start(engine, seat_list, options, timeout, seed, events=events, **start)

    def fork(
        self,
        match_id: str,
        version: int,
        seats: list[dict] | None = None,
        client: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """A new match whose log is the first ``version`` events of a finished match,
        re-chained under a new id, with the same seed; it continues from there. Forks are
        open information by design (analysis): the original's export revealed that seed, so
        anyone holding it can compute the fork's hidden cards and future draws.

        ``seats`` defaults to the original seats as they were at ``version``
        (:func:`seats_at_fork`: kinds, bot levels and options, names; new tokens; a fork
        binds nobody, so a name a seat of it may not carry, a registered player's above all,
        is left out: :meth:`passing_names`); given
        ``seats`` are taken as given (names included). ``client`` as for
        :meth:`create_match`. Raises MatchRunning, VersionOutOfRange (before the end of
        set-up, or at or past the last version: that fork would be finished already; its
        ``min_version``/``max_version`` say the range), 422 ``not_a_batch_boundary``,
        InvalidSeats, and with a ``client`` the quota errors.
        ``idempotency_key``: as for :meth:`create_match` (scoped by the forked match).
        """
        record = self.ctx.record(match_id)
        if not record.finished:
            raise errors.MatchRunning()
        engine = self.ctx.engine(record.game)
        envelopes = self.ctx.envelopes(match_id, record, upto=record.version)
        setup_len = sum(1 for e in envelopes if e.get("cause") == "setup")
        if (
            isinstance(version, bool)
            or not isinstance(version, int)
            or not setup_len <= version < record.version
        ):
            # from the end of set-up; the last version would copy the finished match whole
            raise errors.VersionOutOfRange(
                version,
                record.version,
                setup_len,
                record.version - 1,
                f" (a fork takes a version from the end of the set-up, {setup_len}, to "
                f"the one before the match's last, {record.version})",
            )
        if "command" not in envelopes[version] and not is_platform(envelopes[version]):
            raise errors.ServiceError(
                "not_a_batch_boundary",
                422,
                f"Version {version} is inside one command's events; "
                "fork at the last event of a command.",
            )
        if seats is None:  # copied names: those a seat of the fork may not carry go
            seat_list = self.passing_names(seats_at_fork(record.seats, envelopes[:version]))
        else:
            seat_list = self.validate_seats(engine, seats)
            self.check_names(seat_list)
            if len(seat_list) != len(record.seats):
                raise errors.InvalidSeats(f"a fork keeps the {len(record.seats)} seats")
        start: dict[str, Any] = {
            "prefix": envelopes[:version],
            "forked_from": {"match_id": match_id, "version": version},
            "listed": record.listed,
            "spectators": record.spectators,
            "client": client,
        }
        if idempotency_key is None:
            return self._start(
                engine, seat_list, record.options, record.turn_timeout_s, record.seed, **start
            )
        check_secret_key(idempotency_key)
        ticket = self.idem.new_match_ticket(
            ("fork", match_id),
            idempotency_key,
            fingerprint({"version": version, "seats": None if seats is None else seat_list}),
            self.ctx.stores.new_match_id(),
        )
        return self._keyed_start(
            ticket,
            lambda: self._start(
                engine,
                seat_list,
                record.options,
                record.turn_timeout_s,
                record.seed,
                match_id=ticket.match_id,
                ticket=ticket,
                **start,
            ),
        )

    def _start(
        self,
        engine: Engine,
        seat_list: list[dict[str, Any]],
        options: Mapping[str, Any],
        timeout: float | None,
        seed: bytes,
        events=None,
        prefix=None,
        forked_from: Any = None,
        listed: bool = True,
        spectators: bool = True,
        extra_meta: Mapping[str, str] | None = None,
        match_id: str | None = None,
        issue_tokens: bool = True,
        client: str | None = None,
        ticket: Ticket | None = None,
    ) -> dict[str, Any]:
        """Store a new match whose log is ``events`` (set-up) or ``prefix`` (fork envelopes;
        its first envelope gets the fork's roster). Files it in the lobby when ``listed``.
        ``match_id`` (default a new random id) and ``issue_tokens`` False (no seat token:
        a rematch's seats are claimed one by one) serve the rematch; a match that exists
        already under ``match_id`` raises MatchExists and stores nothing. With a ``client``
        the bot caps are checked and a running bot match is counted for it (given back if
        the match cannot be stored; a store outage clearing its in-flight mark once it is
        stored leaves the mark to expire and the creation stands). ``ticket`` (a keyed create or fork): the seat tokens
        are the ticket's derived ones and the answer is recorded by the storing append."""
        stores = self.ctx.stores
        match_id = match_id or stores.new_match_id()
        counted = False
        if client is not None:
            self.quotas.check_options(seat_list)
            counted = self.quotas.reserve(client, match_id, seat_list)
        try:
            stored = self._store(
                engine,
                seat_list,
                options,
                timeout,
                seed,
                events,
                prefix,
                forked_from,
                listed,
                spectators,
                extra_meta,
                match_id,
                issue_tokens,
                client if counted else None,
                ticket,
            )
        except BaseException:
            if counted and client is not None:
                self.quotas.release(client, match_id)
            raise
        if counted:
            try:
                self.quotas.written(match_id)
            except Exception as error:
                # stored and counted: the in-flight mark expires by itself (it only spares
                # an id without a record from pruning), so the creation stands; a 503 here
                # would have a client without an Idempotency-Key create a second match
                if not errors.is_store_unavailable(error):
                    raise
                log.warning("in-flight mark of %s left to expire: %r", match_id, error)
        return stored

    def _store(
        self,
        engine: Engine,
        seat_list: list[dict[str, Any]],
        options: Mapping[str, Any],
        timeout: float | None,
        seed: bytes,
        events,
        prefix,
        forked_from: Any,
        listed: bool,
        spectators: bool,
        extra_meta: Mapping[str, str] | None,
        match_id: str,
        issue_tokens: bool,
        quota_client: str | None,
        ticket: Ticket | None = None,
    ) -> dict[str, Any]:
        """Store the new match of :meth:`_start` (``quota_client``: the client counting it,
        kept in its meta so its end releases the count; ``ticket``: see :meth:`_start`)."""
        stores = self.ctx.stores
        rated = (extra_meta or {}).get("rated") == "1"
        roster = roster_of(
            engine, seat_list, options, timeout, forked_from, LOG_FORMAT, rated=rated
        )
        if prefix is None:
            envelopes = build_envelopes(
                events, 1, genesis_hash(match_id), "setup", roster=roster, log_format=LOG_FORMAT
            )
        else:
            prefix = [dict(e) for e in prefix]
            prefix[0]["roster"] = roster
            envelopes = rechain(prefix, genesis_hash(match_id), LOG_FORMAT)
        state = None
        for env in envelopes:
            state = fold_envelope(engine, state, env)
        tokens = {
            s["seat"]: ticket.token(s["seat"]) if ticket else new_token()
            for s in seat_list
            if s["kind"] == "human" and issue_tokens
        }
        digests = {s: token_digest(t) for s, t in tokens.items()}
        writes = WriteBatch()  # run by the append script: one round trip in all
        stores.seats.issue(match_id, digests, pipe=writes)
        now = self.ctx.clock()
        meta = {
            "game": engine.game_id,
            "seats": canonical_json(seat_list),
            "options": canonical_json(dict(options)),
            "seed": seed.hex(),
            "seed_commitment": seed_commitment(seed),
            "created_at": utc_iso(now),
            "human_at": utc_iso(now),
            "turn_timeout_s": "" if timeout is None else repr(timeout),
            "forked_from": canonical_json(forked_from),
            "listed": "1" if listed else "0",
            "spectators": "1" if spectators else "0",
            "log_format": LOG_FORMAT,
            **(extra_meta or {}),
        }
        if quota_client:
            meta["quota_client"] = quota_client
        facts = head_facts(engine, state)
        fields, decisions = head_fields(engine, state, envelopes, {}, None, facts)
        meta.update(fields)
        version = len(envelopes)
        record = MatchRecord.parse(match_id, {**meta, "version": str(version)})
        stores.index.created(match_id, time.time(), running=facts.result is None, pipe=writes)
        if listed:
            stores.index.file(
                match_id, engine.game_id, record.created_ts, record.lobby_bucket(set()), pipe=writes
            )
        _, after_record, pending, finished = self.after_append.writes(
            record, engine, state, 0, version, ["matches_created"], batch=writes, facts=facts
        )
        answer = {
            "match_id": match_id,
            "game": engine.game_id,
            "version": len(envelopes),
            "seed_commitment": meta["seed_commitment"],
            "seats": seat_list,
            "turn_timeout_s": timeout,
            # what the request asked for, as the match keeps it (a probe had to GET it)
            "rated": record.rated,
            "unlisted": not record.listed,
            "spectators": record.spectators,
        }
        idem: dict[str, Any] = {}
        if ticket is not None:  # recorded with the match (tokens derived again on a repeat)
            idem = {
                "idem_field": self.idem.answer_field(ticket),
                "idem_answer": {**answer, "token_seats": sorted(tokens)},
            }
        outcome = stores.events.append(match_id, 0, envelopes, meta, writes=writes, **idem)
        if outcome.status != "ok":
            raise errors.MatchExists(match_id)
        self.after_append.done(after_record, pending, version, None, finished, decisions)
        for s in seat_list:
            if s.get("player") and self.players is not None:
                self.players.file_match(s["player"], match_id, record.created_ts)
        # the creator's process holds the new fold and the seat tokens: its first action
        # and read need no load
        self.ctx.token_digests.set(match_id, digests)
        self.ctx.keep(Loaded(record, engine, version, envelopes[-1]["hash"], state, decisions))
        seats_out = []
        for s in seat_list:
            entry = dict(s)
            if s["seat"] in tokens:
                entry["token"] = tokens[s["seat"]]
            seats_out.append(entry)
        return {**answer, "seats": seats_out}

    # ------------------------------------------------------------------ seats and tokens
    def join(
        self,
        match_id: str,
        seat: int,
        name: str | None = None,
        idempotency_key: str | None = None,
        player_id: str | None = None,
    ) -> dict[str, Any]:
        """Claim an ``open`` seat: returns ``{"seat", "token", "version"}`` (token shown
        once). The claim (an atomic ``HSETNX`` of the token digest) is followed by the
        seat's ``SeatJoined`` platform envelope (cause ``join``, in the hash chain:
        :mod:`service.log.roster`), appended on the current head and re-chained on a race.
        Raises SeatNotFound, SeatTaken (claimed already, human or bot seat),
        MatchFinished (409 ``match_finished``), SeatNameReserved (422: :meth:`check_names`).

        ``idempotency_key`` (at least 16 characters): a repeat with the same key and
        ``name`` answers the first answer again — the same token — with ``replayed: true``
        for as long as the match's idempotency records live (even once the match has
        finished); another ``name``: IdempotencyKeyReused (422). Keyed answers carry
        ``replayed`` (:mod:`service.usecases.idempotency`).

        ``player_id`` (the joiner's player key): the seat is bound to that player (its
        ``SeatJoined`` carries ``player``; the name defaults to the player's). A rated match
        takes only players, one seat each: RatedMatchRefused (422) without one, and 409
        ``player_already_seated`` for a player who holds a seat of the match already — also
        when two joins of the player race: the roster is checked again on the head each
        ``SeatJoined`` is appended on (:meth:`_append_join`)."""
        record = self.ctx.record(match_id)
        seat = check_seat(record, seat)
        if record.rated and player_id is None and record.seats[seat]["kind"] == "open":
            raise errors.RatedMatchRefused(
                "rated_match_refused",
                "A rated match is joined with a player key (Authorization: Bearer <player key>).",
            )
        if name is not None and (not isinstance(name, str) or not 1 <= len(name) <= 64):
            raise errors.InvalidSeats("name must be 1-64 characters")
        ticket = field = None
        if idempotency_key is not None:
            check_secret_key(idempotency_key)
            scope = ("join", match_id, seat)
            ticket, prior = self.idem.seat_ticket(
                match_id,
                scope,
                seat,
                idempotency_key,
                fingerprint({"name": name or None, "player": player_id}),
                record_salt=not record.finished,
            )
            if prior is not None:
                assert ticket is not None  # an answer was recorded under it
                self.ctx.stores.metrics.incr("idempotent_replays")
                return {
                    "seat": seat,
                    "token": ticket.token(seat),
                    "version": prior["version"],
                    "replayed": True,
                }
            field = self.idem.seat_fields(scope, seat, idempotency_key)[0]
        if player_id is not None and record.seat_of_player(player_id) is not None:
            raise _already_seated()  # after a keyed repeat's answer: that is its own seat
        if name is not None:  # after a keyed repeat's answer: checked when it was first sent
            self.check_names(
                [{"seat": seat, "name": name, "player": player_id}], seat_names(record)
            )
        if record.seats[seat]["kind"] != "open":
            raise errors.SeatTaken(seat)
        if record.finished:
            raise MatchFinished()
        token = new_token() if ticket is None else ticket.token(seat)
        answer, replayed = self.claim_and_join(
            match_id, seat, name or None, token, field, player_id
        )
        if player_id is not None and self.players is not None:
            self.players.file_match(player_id, match_id, record.created_ts)
        out = {"seat": seat, "token": token, "version": answer["version"]}
        return out if ticket is None else {**out, "replayed": replayed}

    def claim_and_join(
        self,
        match_id: str,
        seat: int,
        name: str | None,
        token: str,
        idem_field: str | None = None,
        player_id: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Claim open ``seat`` with ``token``'s digest and append its ``SeatJoined``.

        With ``idem_field`` (a keyed join; ``token`` derived from the key) a seat that
        already holds this very digest is this request's own earlier claim (a repeat after
        a lost answer or a crash), and the ``SeatJoined`` append records ``{"seat",
        "version"}`` under ``idem_field`` — or finds it recorded and appends nothing.
        Returns ``({"seat", "version"}, replayed)``. Raises SeatTaken, and 409
        ``player_already_seated`` when ``player_id`` holds another seat on the head the
        join would be appended on (the claim is then given back: its token was never
        shown)."""
        digest = token_digest(token)
        seats = self.ctx.stores.seats
        if not seats.claim(match_id, seat, digest) and not (
            idem_field is not None and seats.holds(match_id, seat, digest)
        ):
            raise errors.SeatTaken(seat)
        try:
            return self._append_join(match_id, seat, name, idem_field, player_id)
        except errors.ServiceError as exc:
            if exc.code in ("player_already_seated", "seat_name_taken"):
                seats.release(match_id, seat, digest)
            raise

    def _append_join(
        self,
        match_id: str,
        seat: int,
        name: str | None,
        idem_field: str | None = None,
        player_id: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Append the ``SeatJoined`` envelope of a claimed seat (with its name and the
        ``human_at`` time in the same script) on whatever the head is now; re-file the
        match in the lobby when its last open seat was taken. Returns ``({"seat",
        "version"}, replayed)``: ``replayed`` when ``idem_field`` held an answer already
        (nothing appended).

        One seat per player: ``player_id`` holding another seat on the head read is 409
        ``player_already_seated``. The append is conditional on that head (version and
        hash), so two joins of one player racing for two seats cannot both pass: the
        loser's append conflicts, and its next turn of the loop sees the winner's seat."""
        stores = self.ctx.stores
        for _attempt in range(100):
            record = self.ctx.record(match_id)
            if player_id is not None and record.seat_of_player(player_id) not in (None, seat):
                raise _already_seated()
            other = same_name(seat_names(record), seat, name) if name else None
            if other is not None and name:  # a racing join took the name since join() read
                raise errors.SeatNameTaken(seat, name, other)
            now = utc_iso(self.ctx.clock())
            env = join_envelope(
                record.version + 1, record.head_hash, seat, name, now, record.log_format, player_id
            )
            fields = {"head_hash": env["hash"], "human_at": now}
            if name:
                fields[stores.keys.name_field(seat)] = name
            if "player" in env["data"]:
                fields[stores.keys.player_field(seat)] = player_id
            answer = {"seat": seat, "version": env["version"]}
            outcome = stores.events.append(
                match_id,
                record.version,
                [env],
                fields,
                idem_field,
                answer if idem_field else None,
                expected_head=record.head_hash,
            )
            if outcome.status == "replayed":
                return outcome.answer, True
            if outcome.status == "ok":
                if record.listed:
                    claimed = stores.seats.claimed(match_id)
                    stores.index.file(
                        match_id, record.game, record.created_ts, record.lobby_bucket(claimed)
                    )
                self.ctx.folds.discard(match_id)
                return {"seat": seat, "version": outcome.version}, False
        raise errors.TooManyConflicts(100)

    def authenticate(self, match_id: str, token: str, *, reads: RequestReads | None = None) -> int:
        """The seat owning ``token`` (constant-time compare of SHA-256 digests).

        A token-cache miss reads the match's whole head (one round trip) into the fold and
        token caches. ``reads`` (the request's
        :class:`service.usecases.context.RequestReads`): the same request's next read of the
        match, given the same ``reads``, reuses that head instead of reading it again.
        Raises MatchNotFound or InvalidToken."""
        if not isinstance(match_id, str):
            raise errors.MatchNotFound(str(match_id))
        if isinstance(token, str) and token:
            cached = self.ctx.token_digests.get(match_id)
            seat = find_seat(cached, token) if cached else None
            if seat is not None:  # tokens are never revoked: a cached digest stays valid
                return seat
        # a miss reads the whole head (one round trip, like the digests alone): the fold
        # goes into the cache, so the request's own read or append needs no load
        loaded, _ = self.ctx.head(match_id)
        if reads is not None:
            self.ctx.keep_fresh(loaded, reads)
        else:
            self.ctx.keep(loaded)
        digests = loaded.tokens or {}
        if loaded.record.archived and self.ctx.archive is not None:  # an archived match
            digests = self.ctx.archive.digests(match_id) or {}
            self.ctx.token_digests.set(match_id, digests)
        if not isinstance(token, str) or not token:
            raise errors.InvalidToken()
        seat = find_seat(digests, token)
        if seat is None:
            raise errors.InvalidToken()
        return seat
