"""Server-wide abuse caps on bot matches: bot option caps and running bot matches per client.

Both apply to matches made on behalf of an outside client (the HTTP API passes the client's
identity as ``client``: create, fork, rematch); in-process callers (the CLI's simulate,
tests, tools) pass none and are trusted.

- **Bot option caps** (``ARENA_MAX_BOT_BUDGET``, ``ARENA_MAX_BOT_TIME_MS``): a bot seat's
  ``bot_options`` value above the server's cap for that option is refused with 422
  ``bot_options_capped`` naming the seat, the option and the cap (refused rather than
  clamped: a client asking for 4096 rollouts must not silently get fewer). The caps are by
  option name, whatever the game: ``budget`` (rollouts per decision) and ``time_budget_ms``
  (wall-clock budget of one decision); an omitted option keeps the bot's own default,
  which the server chose.
- **Running bot matches per client** (``ARENA_MAX_BOT_MATCHES_PER_CLIENT``): a client may
  have at most that many running matches with a bot seat; one more is refused with 429
  ``too_many_bot_matches`` (``Retry-After`` is a polling hint: a match ends at its own
  pace). The count is a Redis set per client, ``P:botmatches:<client>`` (one key: any
  cluster node, no multi-key command), holding the ids of the client's running bot
  matches: a reservation (a script on that one key) adds the new id only below the cap,
  the end of the match removes it (:mod:`service.usecases.after_append`, in the pipeline of the
  append that finished it), and a failed creation gives it back. Membership makes every
  step idempotent; a removal lost with a crashed process is repaired when the cap is hit:
  the ids of matches that are no longer running (or gone, unless a request is still creating
  them: :class:`ClientSets`) are removed first. An empty set
  is deleted by Redis, so nothing stays behind for a client without running bot matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from service.errors import ServiceError
from service.store.keys import Keys

#: Seconds a client refused by the running-bot-match cap is told to wait (``Retry-After``).
QUOTA_RETRY_AFTER_S = 10

#: ``KEYS[1]`` a client's set, ``ARGV[1]`` the id to hold (a match, an analysis), ``ARGV[2]``
#: the cap, ``ARGV[3]`` (optional) seconds the set then lives. Returns 2 when the id is held
#: already, 1 when added now, 0 when the set is at the cap. Also used by
#: :class:`service.store.analysis_store.AnalysisStore` (analyses per client).
RESERVE_BELOW_CAP = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 2 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
if ARGV[3] then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3])) end
return 1
"""


class BotOptionsCapped(ServiceError):
    """422 ``bot_options_capped``: a seat's bot option exceeds the server's cap. Extras
    ``seat``, ``option``, ``cap``."""

    def __init__(self, seat: int, option: str, value: Any, cap: int):
        super().__init__(
            "bot_options_capped",
            422,
            f"Seat {seat}: bot option {option} = {value} is above this server's cap of {cap}.",
            seat=seat,
            option=option,
            cap=cap,
        )


class TooManyBotMatches(ServiceError):
    """429 ``too_many_bot_matches``: the client has ``cap`` running bot matches already.
    ``retry_after_s``: the ``Retry-After`` hint. Extra ``cap``."""

    def __init__(self, cap: int):
        super().__init__(
            "too_many_bot_matches",
            429,
            f"This client has {cap} running matches with bot seats, the server's "
            "cap; start another when one of them has ended.",
            cap=cap,
        )
        self.retry_after_s = QUOTA_RETRY_AFTER_S


@dataclass(frozen=True, slots=True)
class BotCaps:
    """The caps (``0`` = no cap): ``budget`` / ``time_budget_ms`` bot option maxima and
    ``matches`` running bot matches per client."""

    budget: int = 0
    time_budget_ms: int = 0
    matches: int = 0

    def option_caps(self) -> dict[str, int]:
        """``option name -> cap`` of the capped bot options."""
        return {
            name: cap
            for name, cap in (("budget", self.budget), ("time_budget_ms", self.time_budget_ms))
            if cap
        }


def has_bot(seats: Iterable[Mapping[str, Any]]) -> bool:
    """True when a seat of ``seats`` (normalised seat entries) is a bot."""
    return any(seat.get("kind") == "bot" for seat in seats)


#: Seconds a reserved id stays counted while its record is not written yet (the creating
#: request is between its reservation and its write): :meth:`ClientSets.prune` leaves it
#: alone meanwhile; after that a reservation whose creator died is pruned like an ended one.
IN_FLIGHT_S = 60


class ClientSets:
    """Redis adapter: per-client sets of ids held below a cap, the mechanism shared by the
    running bot matches (:class:`BotMatchSets`) and the analyses queued or running
    (:class:`service.store.analysis_store.AnalysisStore`).

    ``set_key(client)`` names a client's set; ``slot(id)`` is the hash tag of the id's
    record, ``status_key(id)`` the hash whose ``status`` says whether the id still counts
    (one of ``live``); ``ttl_s`` is how long a set lives after its last addition (``None``:
    no expiry).

    A reservation first marks the id in flight (:meth:`service.store.keys.Keys.reserving`,
    expiring after :data:`IN_FLIGHT_S`), then adds it below the cap (one script on the
    set's one key: :data:`RESERVE_BELOW_CAP`); :meth:`written` clears the mark once the
    record exists. :meth:`prune` removes the ids whose record is not live, and those with no
    record unless in flight: without the mark, a request that met the cap while another was between its
    reservation and its write pruned that one (no record yet) and passed the cap (a probe
    sent 6 analyses at once at a cap of 3: 4 were accepted)."""

    def __init__(
        self,
        redis,
        keys: Keys,
        set_key: Callable[[str], str],
        slot: Callable[[str], str],
        status_key: Callable[[str], str],
        live: frozenset[str],
        ttl_s: int | None = None,
    ):
        self.redis = redis
        self.keys = keys
        self.set_key = set_key
        self.slot = slot
        self.status_key = status_key
        self.live = live
        self.ttl_s = ttl_s
        self._reserve = redis.register_script(RESERVE_BELOW_CAP)

    def reserve(self, client: str, item: str, cap: int) -> int:
        """Mark ``item`` in flight and add it to ``client``'s set below ``cap``: 1 added,
        2 held already, 0 refused (at the cap; the mark is taken back). Two round trips
        (three when refused). A Redis error after the mark's ``SET`` raises and leaves the
        mark (the script may have run, its reply lost): the id counts at most until the
        mark expires (:data:`IN_FLIGHT_S`), then :meth:`prune` removes it as an id without
        a record; it is not given back here, as this call may not be the one that added it
        (a keyed create's repeat reserves the same id: tests/integration/test_bot_cap_faults.py)."""
        marker = self.keys.reserving(self.slot(item))
        self.redis.set(marker, 1, ex=IN_FLIGHT_S)
        args: list[Any] = [item, cap] + ([self.ttl_s] if self.ttl_s else [])
        outcome = int(self._reserve(keys=[self.set_key(client)], args=args))
        if outcome == 0:
            self.redis.delete(marker)
        return outcome

    def written(self, item: str, pipe=None) -> None:
        """``item``'s record is written (or its creation given up): clear its in-flight
        mark (queued on ``pipe``, which must be on the record's slot, when given)."""
        (pipe if pipe is not None else self.redis).delete(self.keys.reserving(self.slot(item)))

    def release(self, client: str, item: str, pipe=None) -> None:
        """Remove ``item`` from ``client``'s set (queued on ``pipe`` when given)."""
        (pipe if pipe is not None else self.redis).srem(self.set_key(client), item)

    def members(self, client: str) -> set[str]:
        """The ids held by ``client``."""
        return set(self.redis.smembers(self.set_key(client)))

    def prune(self, client: str) -> int:
        """Remove from ``client``'s set the ids whose record is not live (ended, failed),
        or gone and not in flight; returns how many were removed. One pipeline reads each
        id's status and mark (per-id keys, each id's two in one slot)."""
        ids = sorted(self.members(client))
        if not ids:
            return 0
        pipe = self.redis.pipeline(transaction=False)
        for item in ids:
            pipe.hget(self.status_key(item), "status")
            pipe.exists(self.keys.reserving(self.slot(item)))
        read = pipe.execute()
        stale = [
            item
            for item, status, flying in zip(ids, read[0::2], read[1::2], strict=True)
            if status not in self.live and (status is not None or not flying)
        ]
        if stale:
            self.redis.srem(self.set_key(client), *stale)
        return len(stale)


class BotMatchSets(ClientSets):
    """The per-client sets of running bot match ids (module docstring): live while the
    match's meta says ``running``; no expiry."""

    def __init__(self, redis, keys: Keys):
        super().__init__(
            redis,
            keys,
            set_key=keys.bot_matches,
            slot=lambda match_id: match_id,
            status_key=keys.meta,
            live=frozenset({"running"}),
        )


class BotQuotas:
    """The caps of one service over its :class:`BotMatchSets` (module docstring)."""

    def __init__(self, sets: BotMatchSets, caps: BotCaps | None = None):
        self.sets = sets
        self.caps = caps or BotCaps()

    def check_options(self, seats: Iterable[Mapping[str, Any]]) -> None:
        """Refuse a bot seat whose ``bot_options`` exceed a cap.

        Raises:
            BotOptionsCapped: 422 ``bot_options_capped`` for the first seat and option over
                its cap (seats in order, options by name).
        """
        caps = self.caps.option_caps()
        if not caps:
            return
        for seat in seats:
            options = seat.get("bot_options") or {}
            for name in sorted(caps):
                value = options.get(name)
                if (
                    isinstance(value, (int, float))
                    and not isinstance(value, bool)
                    and value > caps[name]
                ):
                    raise BotOptionsCapped(seat["seat"], name, value, caps[name])

    def reserve(self, client: str, match_id: str, seats: Iterable[Mapping[str, Any]]) -> bool:
        """Count ``match_id`` (about to be created for ``client``) among the client's running
        bot matches when it has a bot seat and a cap is set. Returns True when this call
        added it (the caller gives it back with :meth:`release` if the creation fails).

        Raises:
            TooManyBotMatches: 429 when the client is at the cap even after removing the
                ids of matches that have ended.
        """
        cap = self.caps.matches
        if not cap or not has_bot(seats):
            return False
        outcome = self.sets.reserve(client, match_id, cap)
        if outcome == 0 and self.sets.prune(client):
            outcome = self.sets.reserve(client, match_id, cap)
        if outcome == 0:
            raise TooManyBotMatches(cap)
        return outcome == 1

    def release(self, client: str, match_id: str, pipe=None) -> None:
        """Stop counting ``match_id`` for ``client`` (it ended, or its creation failed)."""
        self.sets.release(client, match_id, pipe)
        if pipe is None:
            self.sets.written(match_id)

    def written(self, match_id: str) -> None:
        """The match counted by :meth:`reserve` is stored: it stops being in flight."""
        self.sets.written(match_id)

    def running(self, client: str) -> int:
        """How many bot matches ``client`` is counted for now."""
        return len(self.sets.members(client))
