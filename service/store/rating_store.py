"""The ratings adapter (issue 22 items 3-4): the projection's keys in Redis, every one under
the hash tag ``{<prefix>-ratings}`` (:meth:`service.store.keys.Keys.ratings`), so an update
(its checkpoint and every rating it changes) is one atomic script on one cluster slot.

=====================  ==========================================================
``checkpoint``         string: canonical JSON ``{"end_us", "match_id", "applied"}`` of
                       the last match folded in and how many are folded
``ended``              sorted set: rated match ids scored by their end (integer
                       microseconds since 1970; ties in id order): the fold order
``inputs``             hash: match id -> :class:`service.ratings.inputs.RatingInput` JSON
``table:<board>``      hash: participant -> ``{"mu", "sigma", "matches"}`` JSON
``board:<board>``      sorted set: participant -> ordinal (``mu - 3 sigma``): the
                       leaderboard
``history:<who>``      list: the participant's rating after each of its rated matches
``written``            set: every ``table``, ``board``, ``history`` and ``points`` key
                       written (a refold deletes them before it writes the new ones)
``names``              hash: ``player:<id>`` -> display name, for every rated player: the
                       leaderboard reads it in the same script as the board (one round
                       trip), since the players' own hashes live on their own slots
``points``             hash (only with an archive): match id -> JSON list of the rating
                       points that match gave (``participant``, ``board``, ``match_id``,
                       ``at``, ``mu``, ``sigma``): the record the archive's
                       ``arena_rating_history`` rows are (re)written from
``pg-gen``             string: a token every refold changes (a refold rewrites every
                       archived row)
``pg-refold``          string: the ``pg-gen`` of a refold whose rows the archive has not
                       taken yet (deleted once it has)
=====================  ==========================================================
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from service.store.keys import Keys

#: KEYS[1] checkpoint, KEYS[2] written, KEYS[3..] the keys the ops name (by index).
#: ARGV[1] the expected checkpoint ("" none), ARGV[2] the new one, then ops:
#: "H" k field value (HSET), "Z" k score member (ZADD), "L" k value (RPUSH), "D" k (DEL),
#: and, not recorded in ``written`` (a refold keeps them): "h" k field value (HSET), "s" k
#: value (SET). Nothing is written unless the checkpoint is still the expected one
#: (returns 0).
_APPLY = """
local cur = redis.call('GET', KEYS[1]) or ''
if cur ~= ARGV[1] then return 0 end
local i = 3
while i <= #ARGV do
  local op = ARGV[i]
  local k = KEYS[tonumber(ARGV[i + 1])]
  if op == 'D' then
    redis.call('DEL', k)
    i = i + 2
  elseif op == 'h' then
    redis.call('HSET', k, ARGV[i + 2], ARGV[i + 3])
    i = i + 4
  elseif op == 's' then
    redis.call('SET', k, ARGV[i + 2])
    i = i + 3
  else
    if op == 'H' then
      redis.call('HSET', k, ARGV[i + 2], ARGV[i + 3])
      i = i + 4
    elseif op == 'Z' then
      redis.call('ZADD', k, ARGV[i + 2], ARGV[i + 3])
      i = i + 4
    else
      redis.call('RPUSH', k, ARGV[i + 2])
      i = i + 3
    end
    redis.call('SADD', KEYS[2], k)
  end
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""

#: KEYS[1] board (sorted set), KEYS[2] table (hash), KEYS[3] names (hash); ARGV offset,
#: count: one round trip for a leaderboard page with its players' names:
#: {total, [member, score, ...], [rating JSON, ...], [name or false, ...]}
_PAGE = """
local total = redis.call('ZCARD', KEYS[1])
local top = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[1] + ARGV[2] - 1, 'WITHSCORES')
local ids = {}
for i = 1, #top, 2 do ids[#ids + 1] = top[i] end
local ratings = {}
local names = {}
if #ids > 0 then
  ratings = redis.call('HMGET', KEYS[2], unpack(ids))
  names = redis.call('HMGET', KEYS[3], unpack(ids))
end
return {total, top, ratings, names}
"""

#: KEYS[1] pg-refold; ARGV[1] the token read: forget the pending refold only if it is
#: still that one (a newer refold keeps its own)
_CLEAR_REFOLD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0
"""


class RatingStore:
    """The ratings projection in Redis (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys):
        self.redis = redis
        self.keys = keys
        self._apply = redis.register_script(_APPLY)
        self._page = redis.register_script(_PAGE)
        self._clear_refold = redis.register_script(_CLEAR_REFOLD)

    def key(self, name: str) -> str:
        return self.keys.ratings(name)

    # ---------------------------------------------------------------- the fold's inputs
    def register(self, match_id: str, end_us: int, input_json: str) -> bool:
        """File a rated match's input in end order (once: a repeat changes nothing);
        True when this call filed it."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(self.key("inputs"), match_id, input_json)
        pipe.zadd(self.key("ended"), {match_id: end_us}, nx=True)
        return bool(pipe.execute()[1])

    def checkpoint(self) -> tuple[str, dict[str, Any]]:
        """``(raw, parsed)`` of the checkpoint (``("", {"applied": 0})`` before any)."""
        raw = self.redis.get(self.key("checkpoint")) or ""
        return raw, (json.loads(raw) if raw else {"applied": 0})

    def rank(self, match_id: str) -> int | None:
        """The 0-based place of ``match_id`` in the end order (``None``: not filed)."""
        return self.redis.zrank(self.key("ended"), match_id)

    def ended(self, start: int = 0) -> list[tuple[str, int]]:
        """``(match_id, end_us)`` in end order from place ``start``."""
        return [
            (m, int(s)) for m, s in self.redis.zrange(self.key("ended"), start, -1, withscores=True)
        ]

    def inputs(self, match_ids: list[str]) -> list[str | None]:
        """The input JSON of each of ``match_ids``."""
        return self.redis.hmget(self.key("inputs"), match_ids) if match_ids else []

    def forget_inputs(self) -> None:
        """Drop every filed input (a rebuild files them again from the logs)."""
        self.redis.delete(self.key("inputs"), self.key("ended"))

    # ---------------------------------------------------------------- ratings
    def ratings(self, board: str, participants: list[str]) -> dict[str, dict[str, Any]]:
        """participant -> rating on ``board`` (absent ones left out)."""
        if not participants:
            return {}
        raw = self.redis.hmget(self.key(f"table:{board}"), participants)
        return {p: json.loads(r) for p, r in zip(participants, raw, strict=True) if r}

    def ratings_of(self, participant: str, boards: Iterable[str]) -> dict[str, dict[str, Any]]:
        """board -> rating of one participant over ``boards`` (one pipelined round trip)."""
        boards = list(boards)
        pipe = self.redis.pipeline(transaction=False)
        for board in boards:
            pipe.hget(self.key(f"table:{board}"), participant)
        return {b: json.loads(r) for b, r in zip(boards, pipe.execute(), strict=True) if r}

    def history(self, participant: str, limit: int = 500) -> list[dict[str, Any]]:
        """The last ``limit`` points of the participant's rating curve, oldest first."""
        return [
            json.loads(r) for r in self.redis.lrange(self.key(f"history:{participant}"), -limit, -1)
        ]

    def page(
        self, board: str, offset: int, count: int
    ) -> tuple[int, list[tuple[str, float, dict[str, Any], str | None]]]:
        """``(total, [(participant, ordinal, rating, name)])`` of one leaderboard page, best
        first (``name``: the player's display name from ``names``, ``None`` for bots, the
        game's difficulties and a player filed before names were kept): one round trip (a
        script on the ratings slot)."""
        total, top, ratings, names = self._page(
            keys=[
                self.key(f"board:{board}"),
                self.key(f"table:{board}"),
                self.key("names"),
            ],
            args=[offset, count],
        )
        rows = []
        for i in range(0, len(top), 2):
            raw, name = ratings[i // 2], names[i // 2]
            rows.append(
                (
                    top[i],
                    float(top[i + 1]),
                    json.loads(raw) if raw else {},
                    name if isinstance(name, str) else None,
                )
            )
        return int(total), rows

    def set_names(self, names: Mapping[str, str]) -> None:
        """File display names (``player:<id>`` -> name) in ``names`` (a backfill for
        players rated before names were kept there)."""
        if names:
            self.redis.hset(self.key("names"), mapping=dict(names))

    # ---------------------------------------------------------------- the archive's record
    def archive_state(self, match_id: str | None) -> tuple[str, str, str | None]:
        """``(pg-gen, pg-refold, points of match_id)`` in one round trip (``""`` for an
        absent string, ``None`` for absent points)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(self.key("pg-gen"))
        pipe.get(self.key("pg-refold"))
        if match_id:
            pipe.hget(self.key("points"), match_id)
        out = pipe.execute()
        return out[0] or "", out[1] or "", (out[2] if match_id else None)

    def generation(self) -> str:
        """The current ``pg-gen`` (``""`` before any refold)."""
        return self.redis.get(self.key("pg-gen")) or ""

    def all_points(self) -> list[dict[str, Any]]:
        """Every rating point of every match in ``points`` (a refold's rows)."""
        out: list[dict[str, Any]] = []
        for _match, raw in sorted(self.redis.hgetall(self.key("points")).items()):
            out += json.loads(raw)
        return out

    def clear_refold(self, token: str) -> bool:
        """Forget the pending refold ``token`` (the archive took its rows); False when a
        newer refold replaced it."""
        return bool(self._clear_refold(keys=[self.key("pg-refold")], args=[token]))

    def snapshot(self) -> dict[str, Any]:
        """Every table, board and history written (for comparisons: rebuild vs live)."""
        out: dict[str, Any] = {}
        for key in sorted(self.redis.smembers(self.key("written"))):
            kind = self.redis.type(key)
            if kind == "hash":
                out[key] = self.redis.hgetall(key)
            elif kind == "zset":
                out[key] = self.redis.zrange(key, 0, -1, withscores=True)
            elif kind == "list":
                out[key] = self.redis.lrange(key, 0, -1)
        return out

    def written(self) -> list[str]:
        return sorted(self.redis.smembers(self.key("written")))

    # ---------------------------------------------------------------- the update
    def apply(self, expected: str, new: Mapping[str, Any], ops: list[tuple[Any, ...]]) -> bool:
        """Run ``ops`` (``("H", key, field, value)``, ``("Z", key, score, member)``,
        ``("L", key, value)``, ``("D", key)``, and untracked ``("h", key, field, value)``,
        ``("s", key, value)``; ``key`` a full key name) and set the
        checkpoint to ``new`` in one script, only if the checkpoint is still ``expected``
        (raw). True when applied."""
        keys = [self.key("checkpoint"), self.key("written")]
        index: dict[str, int] = {}
        args: list[Any] = [expected, checkpoint_text(new)]
        for op in ops:
            kind, key, *rest = op
            if key not in index:
                keys.append(key)
                index[key] = len(keys)
            args += [kind, index[key], *rest]
        return bool(self._apply(keys=keys, args=args))


def checkpoint_text(doc: Mapping[str, Any]) -> str:
    """The stored form of a checkpoint (sorted keys, compact)."""
    return json.dumps(dict(doc), sort_keys=True, separators=(",", ":"))
