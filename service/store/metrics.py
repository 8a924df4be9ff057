"""Prometheus counters shared by every process through Redis hashes, one per index shard
(``P:{P-ix-<k>}:metrics``, :mod:`service.store.slots`): an append counts in its match's shard
inside the append script; a counter's value is the sum over the shards (and the
pre-sharding single hash ``P:metrics``). The RQ job-duration histogram lives in the same
hashes (a job counts in one random shard), so any API process's ``/metrics`` shows the
whole deployment's. Exposed through prometheus_client (:meth:`Metrics.collect` yields its
metric families; :mod:`api.metrics` adds the per-process HTTP histograms)."""

from __future__ import annotations

import random

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.utils import floatToGoString

from service.store.keys import Keys
from service.store.slots import shard_map

COUNTERS = {
    "matches_created": ("arena_matches_created_total", "Matches created (including forks)."),
    "actions_accepted": ("arena_actions_accepted_total", "Commands accepted and appended."),
    "append_conflicts": ("arena_append_conflicts_total", "Appends that lost a version race."),
    "bot_turns": ("arena_bot_turns_total", "Decisions made by bots."),
    "timeouts": ("arena_timeouts_total", "Decisions made for timed-out seats."),
    "idempotent_replays": ("arena_idempotent_replays_total", "Repeated Idempotency-Keys answered."),
    "matches_abandoned": (
        "arena_matches_abandoned_total",
        "Matches ended abandoned (no human acted).",
    ),
    "reconcile_requeued": ("arena_reconcile_requeued_total", "Turn jobs re-created by reconcile."),
    "matches_compacted": (
        "arena_matches_compacted_total",
        "Finished matches compacted (service/upkeep/compaction.py).",
    ),
    "matches_archived": (
        "arena_matches_archived_total",
        "Finished matches moved to the PostgreSQL archive.",
    ),
}
REJECTED = "rejected:"
#: Hash fields of the RQ job-duration histogram: ``job:<kind>:<bucket index>`` (the count in
#: that bucket alone; the exposition makes them cumulative) and ``job-sum:<kind>``.
JOB = "job:"
JOB_SUM = "job-sum:"
#: Upper bounds (seconds) of the job-duration buckets (+Inf follows).
JOB_BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


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
        :class:`service.store.write_batch.WriteBatch` the caller runs) when given."""
        (pipe if pipe is not None else self.redis).hincrby(self._key(match_id), name, amount)

    def rejected(self, code: str) -> None:
        """Count one rejected command by its error ``code`` (in any shard)."""
        self.redis.hincrby(self._key(None), REJECTED + code, 1)

    def totals(self) -> dict[str, float]:
        """Every counter summed over the shards (one pipeline; integers but the job
        histograms' sums)."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in [*range(self.map.shards), None]:
            pipe.hgetall(self.keys.metrics(shard))
        out: dict[str, float] = {}
        for part in pipe.execute():
            for field_name, value in part.items():
                number = float(value) if field_name.startswith(JOB_SUM) else int(value)
                out[field_name] = out.get(field_name, 0) + number
        return out

    def observe_job(self, kind: str, seconds: float) -> None:
        """Count one finished RQ job of ``kind`` (``bot_turn``, ``turn_timeout``,
        ``reconcile``) that ran ``seconds``: its bucket of :data:`JOB_BUCKETS_S`, the count
        and the sum, in one shard (one round trip). The histogram is the deployment's:
        every worker process adds to the same hashes."""
        index = next(
            (i for i, bound in enumerate(JOB_BUCKETS_S) if seconds <= bound), len(JOB_BUCKETS_S)
        )
        key = self._key(None)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hincrby(key, f"{JOB}{kind}:{index}", 1)
        pipe.hincrbyfloat(key, f"{JOB_SUM}{kind}", seconds)
        pipe.execute()

    def collect(self, running: int, queue: dict[str, dict[str, int]] | None = None):
        """prometheus_client metric families (a custom collector's ``collect``): every
        counter of :data:`COUNTERS`, ``arena_actions_rejected_total{code}``,
        ``arena_running_matches``, ``arena_rq_job_duration_seconds{kind}`` (a histogram)
        and, given ``queue`` (``{"turns": {"queued": n, "scheduled": n, "started": n},
        "analysis": {...}}`` of :meth:`service.usecases.ops.Ops.queue_depth`),
        ``arena_rq_jobs{queue, state}``."""
        raw = self.totals()
        for field_name, (metric, help_text) in COUNTERS.items():
            yield CounterMetricFamily(metric, help_text, value=int(raw.get(field_name, 0)))
        rejected = CounterMetricFamily(
            "arena_actions_rejected_total", "Commands rejected, by error code.", labels=["code"]
        )
        for field_name in sorted(raw):
            if field_name.startswith(REJECTED):
                rejected.add_metric([field_name[len(REJECTED) :]], int(raw[field_name]))
        yield rejected
        yield GaugeMetricFamily("arena_running_matches", "Matches without a result.", value=running)
        jobs = HistogramMetricFamily(
            "arena_rq_job_duration_seconds",
            "Run time of finished RQ jobs (bot turns, turn timeouts, "
            "reconcile passes), by kind, over every worker.",
            labels=["kind"],
        )
        kinds = sorted({name[len(JOB) :].rsplit(":", 1)[0] for name in raw if name.startswith(JOB)})
        for kind in kinds:
            buckets, total = [], 0
            for index, bound in enumerate([*JOB_BUCKETS_S, float("inf")]):
                total += int(raw.get(f"{JOB}{kind}:{index}", 0))
                buckets.append((floatToGoString(bound), total))
            jobs.add_metric([kind], buckets, sum_value=float(raw.get(f"{JOB_SUM}{kind}", 0)))
        yield jobs
        if queue is not None:
            depth = GaugeMetricFamily(
                "arena_rq_jobs",
                "RQ jobs by queue (turns: bot turns and timeouts; analysis: analysis "
                "slices) and state (queued: waiting for a worker; scheduled: turn "
                "timeouts not due yet; started: running).",
                labels=["queue", "state"],
            )
            for name, states in queue.items():
                for state, count in states.items():
                    depth.add_metric([name, state], count)
            yield depth

    def render(self, running: int, queue: dict[str, dict[str, int]] | None = None) -> str:
        """Prometheus text exposition (version 0.0.4, by prometheus_client) of
        :meth:`collect`."""
        registry = CollectorRegistry(auto_describe=False)
        registry.register(_Collector(lambda: self.collect(running, queue)))
        return generate_latest(registry).decode()


class _Collector:
    """A prometheus_client collector yielding what ``collect`` returns."""

    def __init__(self, collect):
        self.collect = collect
