"""How a match ends early or starts again: resign, abandonment, rematch.

- **Resign** (``POST .../resign``): the seat's command ``{"type": "resign"}`` decided by the
  game like any other (:mod:`domain.lifecycle`; each game's RULINGS.md says what it does),
  so it is in the hash chain and a verifier re-runs it. A game that plays on has the
  resigned seat's decisions made by its ``timeout_bot`` (cause ``timeout``).
- **Abandonment**: a running match in which no human seat acted (command, join, resign)
  for ``abandon_after_s`` (``ARENA_ABANDON_AFTER_S``) ends with the command
  ``{"type": "abandon", "idle_s": N}`` decided without a seat (cause ``abandon``, actor
  ``null``): the game's ``MatchEnded`` with ``outcome: "abandoned"``, status ``abandoned``.
  Full reconcile passes look for such matches (:meth:`Lifecycle.abandon_idle`).
- **Rematch** (``POST .../rematch``): the first call by a seat of a finished match
  creates a match with the same game, options, roster (bot levels and options; open seats
  stay open; human seats without tokens), turn timeout, listing and spectators, and a new
  secret seed; its id is recorded in the original's meta (``HSETNX``, so concurrent calls
  agree on one id, and the creation's append at version 0 lets only one request create
  it). Each human seat of the original then claims its rematch seat once: a seat created
  human gets its new token (``HSETNX`` of its digest), a joined open seat joins the
  rematch's open seat under the same name. Copied names follow the rules of create and join
  (a name that would be refused there is left out: the rematch binds no seat to a player,
  so a registered player's name, even that player's own, goes). With an ``Idempotency-Key`` (scoped by the
  bearer's seat) a repeated call answers the first answer again, the same token included
  (:mod:`service.usecases.idempotency`).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from domain.engine import RuleError, derive_rng
from service import errors
from service.tokens import new_token, token_digest
from service.usecases.act import Act
from service.usecases.context import MatchContext
from service.usecases.create_join import CreateJoin, seat_names
from service.usecases.idempotency import fingerprint

log = logging.getLogger(__name__)

RESIGN = {"type": "resign"}


class Lifecycle:
    """resign, abandon_idle / abandon, rematch (see module docstring)."""

    def __init__(
        self, ctx: MatchContext, act: Act, create_join: CreateJoin, abandon_after_s: float = 86400.0
    ):
        self.ctx = ctx
        self.act = act
        self.create_join = create_join
        self.abandon_after_s = abandon_after_s

    # ------------------------------------------------------------------ resign
    def resign(self, match_id: str, seat: int, *, reads=None) -> dict[str, Any]:
        """``seat`` resigns: ``{"version", "events", "replayed"}`` as :meth:`Act.act`
        (``reads``: the request's reads). Raises MatchFinished (409), SeatResigned (409,
        already resigned) or the game's RuleError."""
        return self.act.act(match_id, seat, dict(RESIGN), cause="player", reads=reads)

    # ------------------------------------------------------------------ abandonment
    def idle_for(self, human_at: str, now: datetime) -> float:
        """Seconds since ``human_at`` (ISO) at ``now`` (0 when it cannot be read)."""
        try:
            return (now - datetime.fromisoformat(human_at)).total_seconds()
        except ValueError:
            return 0.0

    def abandon_idle(self, match_ids) -> int:
        """End every match of ``match_ids`` (running ones) idle for ``abandon_after_s``;
        returns how many were abandoned."""
        ended = 0
        for match_id in sorted(match_ids):
            try:
                ended += self.abandon(match_id)
            except errors.MatchNotFound:
                continue
        return ended

    def abandon(self, match_id: str) -> bool:
        """End ``match_id`` as abandoned when no human acted for ``abandon_after_s``
        (checked on the head just read); True when it ended now. A game that cannot be
        abandoned (its decide refuses the command) is left running, logged."""
        ctx = self.ctx
        for _attempt in range(ctx.append_attempts):
            loaded, _ = ctx.head(match_id)
            record, engine = loaded.record, loaded.engine
            idle = self.idle_for(record.human_at, ctx.clock())
            if engine.result(loaded.state) is not None or idle < self.abandon_after_s:
                ctx.keep(loaded)
                return False
            command = {"type": "abandon", "idle_s": int(self.abandon_after_s)}
            try:
                events = engine.decide(
                    loaded.state, None, command, derive_rng(record.seed, loaded.version)
                )
            except RuleError as exc:
                ctx.keep(loaded)
                log.warning("match %s cannot be abandoned (%s)", match_id, exc.code)
                return False
            appended = self.act._append_batch(
                match_id, loaded, None, command, events, "abandon", None, ""
            )
            if appended.answer is not None:
                ctx.stores.metrics.incr("matches_abandoned")
                return True
            ctx.stores.metrics.incr("append_conflicts", match_id=match_id)
        return False

    # ------------------------------------------------------------------ rematch
    def rematch(
        self,
        match_id: str,
        seat: int,
        client: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """The rematch of finished ``match_id`` for ``seat`` (the bearer's seat):
        ``{"match_id", "game", "version", "seed_commitment", "seat", "token", "seats",
        "turn_timeout_s", "created"}`` (``created``: this call made the match; ``token``:
        the seat's new token, shown once). Raises MatchRunning (409), NotASeatOfTheMatch
        (409: a bot seat), RematchSeatClaimed (409: this seat claimed its token already),
        SeatTaken (its open seat was joined by someone else). ``client``: the outside client
        asking, whose bot caps apply when this call creates the match (:mod:`service.store.quotas`:
        BotOptionsCapped, TooManyBotMatches; the rematch stays named, a later call creates
        it).

        ``idempotency_key`` (the bearer's seat proves who asks: any 1-128 characters): a
        repeat answers the first answer again (the same token, ``created`` as first
        answered) with ``replayed: true`` while the rematch's idempotency records live;
        the token is derived from the key and never stored (:mod:`service.usecases.idempotency`).
        Keyed answers carry ``replayed``."""
        ctx = self.ctx
        record = ctx.record(match_id)
        if not record.finished:
            raise errors.MatchRunning()
        created_kind = record.seats[seat]["kind"]
        if created_kind == "bot":
            raise errors.NotASeatOfTheMatch(seat)
        rematch_id, created = self._rematch_match(record, client)
        ticket = field = None
        if idempotency_key is not None:
            idem = self.create_join.idem
            scope = ("rematch", match_id, seat)
            ticket, prior = idem.seat_ticket(
                rematch_id,
                scope,
                seat,
                idempotency_key,
                fingerprint({}),
                record_salt=not ctx.record(rematch_id).finished,
            )
            if prior is not None:
                assert ticket is not None  # an answer was recorded under it
                ctx.stores.metrics.incr("idempotent_replays")
                return {**_with_token(prior, ticket.token(seat)), "replayed": True}
            if ticket is None:  # a finished rematch keeps no new records
                raise errors.RematchSeatClaimed(seat, rematch_id)
            field = idem.seat_fields(scope, seat, idempotency_key)[0]
        token = new_token() if ticket is None else ticket.token(seat)
        if created_kind == "open":
            self._rejoin(rematch_id, seat, record.names.get(seat), token, field)
        else:
            digest = token_digest(token)
            if not ctx.stores.seats.claim(rematch_id, seat, digest) and not (
                ticket is not None and ctx.stores.seats.holds(rematch_id, seat, digest)
            ):
                raise errors.RematchSeatClaimed(seat, rematch_id)
        new = ctx.record(rematch_id)
        answer = {
            "match_id": rematch_id,
            "game": new.game,
            "version": new.version,
            "seed_commitment": new.seed_commitment,
            "seat": seat,
            "seats": new.public_seats(ctx.stores.seats.claimed(rematch_id)),
            "turn_timeout_s": new.turn_timeout_s,
            "created": created,
            "rematch_of": match_id,
        }
        if ticket is None:
            return _with_token(answer, token)
        assert field is not None  # set with the ticket
        recorded, earlier = self.create_join.idem.record_answer(rematch_id, field, answer)
        return {**_with_token(recorded, token), "replayed": earlier}

    def _rejoin(
        self, rematch_id: str, seat: int, name: str | None, token: str, field: str | None
    ) -> None:
        """Join the rematch's open ``seat`` with ``token`` under the name the seat joined
        the original with, when that name passes the rules of a join
        (:meth:`CreateJoin.passing_names`: no registered player's name, since a rematch
        binds nobody; no name another seat of the rematch carries), else unnamed. Raises
        RematchSeatClaimed when someone else joined the seat."""
        joined = None if field is None else field + ":joined"
        if name:
            taken = seat_names(self.ctx.record(rematch_id))
            name = self.create_join.passing_names([{"seat": seat, "name": name}], taken)[0].get(
                "name"
            )
        try:
            try:
                self.create_join.claim_and_join(rematch_id, seat, name, token, joined)
            except errors.SeatNameTaken:  # another seat's join took the name meanwhile
                self.create_join.claim_and_join(rematch_id, seat, None, token, joined)
        except errors.SeatTaken:
            raise errors.RematchSeatClaimed(seat, rematch_id) from None

    def _rematch_match(self, record, client: str | None = None) -> tuple[str, bool]:
        """The id of ``record``'s rematch, creating it when this call is the first to
        name it or finds it named but not yet stored; ``(id, created by this call)``."""
        ctx = self.ctx
        candidate = ctx.stores.new_match_id()
        if record.archived:  # its record lives in the archive (service/upkeep/archive.py)
            assert ctx.archive is not None  # an archived record came from it
            rematch_id = ctx.archive.claim_rematch(record.match_id, candidate)
        else:
            rematch_id = ctx.stores.events.claim_meta_field(record.match_id, "rematch", candidate)
        try:
            ctx.record(rematch_id)  # stored already (in Redis or archived since)
            return rematch_id, False
        except errors.MatchNotFound:
            pass
        engine = ctx.engine(record.game)
        # a rematch is casual and its seats anonymous until joined (players bind their own):
        # a copied name that a seat of the rematch may not carry (a registered player's, a
        # reserved one, a second seat's) is left out, as create and join would refuse it
        seats = self.create_join.passing_names(
            [{k: v for k, v in s.items() if k != "player"} for s in record.seats]
        )
        try:
            self.create_join.start_fresh(
                engine,
                seats,
                record.options,
                record.turn_timeout_s,
                listed=record.listed,
                spectators=record.spectators,
                match_id=rematch_id,
                issue_tokens=False,
                extra_meta={"rematch_of": record.match_id},
                client=client,
            )
        except errors.MatchExists:
            return rematch_id, False  # another request created it first
        # This call stored the match, whichever request named the id: it is the creator
        # (a call that names the id may lose the store race to one that read the name).
        return rematch_id, True


def _with_token(answer: dict[str, Any], token: str) -> dict[str, Any]:
    """A rematch answer with the seat's ``token`` right after ``seat`` (its documented
    order)."""
    out: dict[str, Any] = {}
    for name, value in answer.items():
        out[name] = value
        if name == "seat":
            out["token"] = token
    return out
