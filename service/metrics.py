"""Prometheus counters shared by every process through Redis hashes, one per index shard
(``P:{P-ix-<k>}:metrics``, :mod:`service.slots`): an append counts in its match's shard
inside the append script; a counter's value is the sum over the shards (and the
pre-sharding single hash ``P:metrics``)."""
from __future__ import annotations

import random

from service.keys import Keys
from service.slots import shard_map

COUNTERS = {
    "matches_created": ("arena_matches_created_total", "Matches created (including forks)."),
    "actions_accepted": ("arena_actions_accepted_total", "Commands accepted and appended."),
    "append_conflicts": ("arena_append_conflicts_total", "Appends that lost a version race."),
    "bot_turns": ("arena_bot_turns_total", "Decisions made by bots."),
    "timeouts": ("arena_timeouts_total", "Decisions made for timed-out seats."),
    "idempotent_replays": ("arena_idempotent_replays_total", "Repeated Idempotency-Keys answered."),
    "matches_abandoned": ("arena_matches_abandoned_total", "Matches ended abandoned (no human acted)."),
    "reconcile_requeued": ("arena_reconcile_requeued_total", "Turn jobs re-created by reconcile."),
    "matches_compacted": ("arena_matches_compacted_total",
                          "Finished matches compacted (service/compaction.py)."),
    "matches_archived": ("arena_matches_archived_total",
                         "Finished matches moved to the PostgreSQL archive."),
}
REJECTED = "rejected:"


class Metrics:
    """Increment and render counters (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys, shards: int = 16):
        self.redis = redis
        self.keys = keys
        self.map = shard_map(keys.prefix, shards)

    def _key(self, match_id: str | None) -> str:
        """The counter hash of ``match_id``'s shard (any shard when none is given)."""
        if match_id is None:
            return self.keys.metrics(random.randrange(self.map.shards))
        return self.keys.metrics(self.map.shard_of(match_id))

    def incr(self, name: str, amount: int = 1, pipe=None, match_id: str | None = None) -> None:
        """Add ``amount`` to counter ``name`` (a key of :data:`COUNTERS`), in the shard of
        ``match_id`` (any shard when ``None``); queued on ``pipe`` (a pipeline or
        :class:`service.write_batch.WriteBatch` the caller runs) when given."""
        (pipe if pipe is not None else self.redis).hincrby(self._key(match_id), name, amount)

    def rejected(self, code: str) -> None:
        """Count one rejected command by its error ``code`` (in any shard)."""
        self.redis.hincrby(self._key(None), REJECTED + code, 1)

    def totals(self) -> dict[str, int]:
        """Every counter summed over the shards (one pipeline)."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in [*range(self.map.shards), None]:
            pipe.hgetall(self.keys.metrics(shard))
        out: dict[str, int] = {}
        for part in pipe.execute():
            for field_name, value in part.items():
                out[field_name] = out.get(field_name, 0) + int(value)
        return out

    def render(self, running: int) -> str:
        """Prometheus text exposition (version 0.0.4) of every counter plus the
        ``arena_running_matches`` gauge."""
        raw = self.totals()
        lines: list[str] = []
        for field_name, (metric, help_text) in COUNTERS.items():
            lines += [f"# HELP {metric} {help_text}", f"# TYPE {metric} counter",
                      f"{metric} {int(raw.get(field_name, 0))}"]
        lines += ["# HELP arena_actions_rejected_total Commands rejected, by error code.",
                  "# TYPE arena_actions_rejected_total counter"]
        for field_name in sorted(raw):
            if field_name.startswith(REJECTED):
                code = field_name[len(REJECTED):].replace("\\", "\\\\").replace('"', '\\"')
                lines.append(f'arena_actions_rejected_total{{code="{code}"}} {int(raw[field_name])}')
        lines += ["# HELP arena_running_matches Matches without a result.",
                  "# TYPE arena_running_matches gauge", f"arena_running_matches {running}"]
        return "\n".join(lines) + "\n"
