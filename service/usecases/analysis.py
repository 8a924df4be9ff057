"""Match analysis (issue 23 item 3): request, run and read the computer analysis of a
finished match or of an uploaded export.

- :meth:`Analyses.request_match` / :meth:`Analyses.request_upload` check the request (a
  finished match, or an export that verifies; a game with an estimator; a budget within
  the server's cap), create the analysis record (:mod:`service.store.analysis_store`) and
  enqueue its job through the :class:`service.scheduler.Scheduler` port. The record is the
  cache: the same log and budget name the same analysis (:func:`analysis_id`), so a second
  request answers the record as it stands (queued, running with its progress, done); a
  record that failed or lost its job is created again, keeping the decisions its slices
  made (:meth:`service.store.analysis_store.AnalysisStore.create`).
- :meth:`Analyses.run` (the worker's job): analyses one slice of the log's turns with
  :func:`domain.analysis.analyse_slice`, which ends after :data:`SLICE_SECONDS` of wall
  clock or :data:`SLICE_ROLLOUTS` rollouts, after the rollout it is on (a decision's
  rollouts are split between slices: its per-candidate sums and counts so far are kept in
  the record's ``pending``, and the next slice goes on from them, with the same result as
  an unsplit run), so bot turns queued meanwhile wait about a second plus one rollout. It
  writes the progress in percent as it goes (a decision it stops inside counted in part,
  by its rollouts so far: :func:`domain.analysis.decision_share`; only ever up: a slice
  run again after its worker died passes the percentages shown already) and enqueues the
  next slice; the last one writes the result.
- A request that names its ``client`` (the API's quota client: the address, as for bot
  matches; player keys and seat tokens are free to make) and would create an analysis
  counts it against the client's cap of analyses queued or running
  (``ARENA_MAX_ANALYSES_PER_CLIENT``, :class:`TooManyAnalyses`): one client queued 30 and
  bot turns waited behind them. A request answered from the cache costs nothing.
- :meth:`Analyses.get` reads one.
- :meth:`Analyses.revive` (every reconcile pass): a slice that ended on a store outage,
  whose worker died, or whose next slice was never enqueued is enqueued again, from the
  record's ``next`` turn and ``part`` (the decisions of the slices before, and the
  decision under way, are in the record); a slice
  whose job *raised* ``max_attempts`` times marks the analysis ``failed`` with the reason.

The analysis seed is the log's head hash (its last envelope's ``hash``): the same match and
budget give the same answer (:func:`domain.analysis.decision_rng`).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Mapping
from datetime import datetime
from time import monotonic
from typing import Any

from domain.analysis import Turn, analyse_slice, summary
from domain.engine import Engine
from service import errors
from service.log.envelopes import batches, is_platform, to_event
from service.log.verify import verify_log
from service.store.analysis_store import AnalysisStore

log = logging.getLogger(__name__)

#: rollouts per decision when a request names no budget
DEFAULT_BUDGET = 64
#: the largest budget any request may name (the server's ``ARENA_MAX_BOT_BUDGET`` may
#: lower it)
MAX_BUDGET = 4096
#: a queued or running analysis whose record was not written for this long (seconds: the
#: job timeout, ``workers.scheduling.ANALYSIS_JOB_TIMEOUT_S``, plus a margin) lost its job
#: (a worker killed, the queue flushed): the next request starts it again
STALE_AFTER_S = 3900
#: seconds an analysis record may go unwritten before reconcile looks at its slice's job:
#: the gaps between writing a slice's decisions and enqueuing the next slice, and between
#: creating the record and enqueuing its first slice, are far shorter
REVIVE_AFTER_S = 10.0
#: rollouts one analysis job may spend (counted one by one, a decision's split between jobs
#: when need be); a job analyses at most ``max(1, SLICE_ROLLOUTS // budget)`` turns and
#: enqueues the next slice, so a worker returns to the turn queue between slices
SLICE_ROLLOUTS = 2048
#: seconds (wall clock) after which a slice ends, after the rollout it is on (inside a
#: decision, whose rollouts the next slice goes on with): a running job holds its worker,
#: and bot turns and timeouts queued meanwhile wait for it. 2,048 rollouts of AI: 100%
#: Human took 22 s of CPU, 29 s on a busy machine (bot turns waited 8-15 s); ending only
#: between decisions, a slice at budget 512 still took 16.8-31.2 s (one decision of
#: A.I.Pokalypse's up to 30 s)
SLICE_SECONDS = 1.0


#: seconds a client refused by the cap on analyses per client is told to wait
#: (``Retry-After``, a polling hint: an analysis ends at its own pace)
RETRY_AFTER_S = 10


class TooManyAnalyses(errors.ServiceError):
    """429 ``too_many_analyses``: the client has ``cap`` analyses queued or running already
    (``Retry-After``: :data:`RETRY_AFTER_S`). Extra ``cap``."""

    def __init__(self, cap: int):
        super().__init__(
            "too_many_analyses",
            429,
            f"This client has {cap} analyses queued or running, the server's cap; request "
            "another when one of them is done.",
            cap=cap,
        )
        self.retry_after_s = RETRY_AFTER_S


class AnalysisUnavailable(errors.ServiceError):
    """422 ``analysis_unavailable``: the game has no estimator to analyse with."""

    def __init__(self, game: str):
        super().__init__(
            "analysis_unavailable",
            422,
            f"The game {game!r} has no estimator: its matches cannot be analysed.",
            game=game,
        )


class AnalysisNotFound(errors.ServiceError):
    """404 ``analysis_not_found``: no analysis with that id (never requested, or expired)."""

    def __init__(self, analysis_id: str):
        super().__init__("analysis_not_found", 404, f"No analysis {analysis_id!r}.")


class AnalysisBudgetCapped(errors.ServiceError):
    """422 ``analysis_budget_capped``: the budget is above the server's cap. Extra ``cap``."""

    def __init__(self, budget: int, cap: int):
        super().__init__(
            "analysis_budget_capped",
            422,
            f"An analysis budget of {budget} rollouts per decision is above this "
            f"server's cap of {cap}.",
            cap=cap,
        )


class LogNotVerified(errors.ServiceError):
    """422 ``log_not_verified``: an uploaded export that does not verify (extra ``errors``:
    ``{"log": [the verifier's sentences]}``, the problem's field -> messages shape)."""

    def __init__(self, problems: list[str]):
        super().__init__(
            "log_not_verified",
            422,
            "The export does not verify; only a verified log is analysed.",
            errors={"log": [str(p) for p in problems][:20]},
        )


#: the analysis document's format, part of every analysis id: raised when a result of the
#: same log and budget would read differently, so no cached result of the format before is
#: answered (2: decisions copied into a fork say ``from_parent`` and leave the seats'
#: summaries)
ANALYSIS_FORMAT = 2


def analysis_id(game: str, head_hash: str, budget: int) -> str:
    """The id of the analysis of the log ending in ``head_hash`` with ``budget``: the first
    32 hex digits of ``SHA-256("<game>|<head hash>|<budget>|<ANALYSIS_FORMAT>")``."""
    name = f"{game}|{head_hash}|{budget}|{ANALYSIS_FORMAT}"
    return hashlib.sha256(name.encode()).hexdigest()[:32]


def turns_of(log_doc: Mapping[str, Any]) -> tuple[list, list[Turn]]:
    """The set-up events and the :class:`domain.analysis.Turn` s of a verified export's
    ``events`` (joins, which the engine never folds, are skipped). In a fork's log
    (``forked_from: {"match_id", "version"}``) the commands within its first ``version``
    events are ``from_parent``."""
    groups = batches(log_doc["events"])
    setup = [to_event(env) for env in groups[0]]
    forked = log_doc.get("forked_from")
    copied = int(forked["version"]) if isinstance(forked, Mapping) else 0
    turns: list[Turn] = []
    for batch in groups[1:]:
        first = batch[0]
        if is_platform(first):
            continue
        turns.append(
            Turn(
                version=int(first["version"]) - 1,
                seat=first.get("actor"),
                command=dict(first.get("command") or {}),
                cause=str(first.get("cause")),
                events=[to_event(env) for env in batch],
                from_parent=int(first["version"]) <= copied,
            )
        )
    return setup, turns


def result_document(log_doc: Mapping[str, Any], analysed: Mapping[str, Any]) -> dict[str, Any]:
    """The result of an analysis of ``log_doc`` (a verified export): ``{"game",
    "match_id", "seat_count", "forked_from"}`` (``forked_from``: the export's, ``None`` for
    a match that is no fork) and ``analysed`` (:func:`domain.analysis.summary`'s document)."""
    return {
        "game": log_doc["game"],
        "match_id": log_doc.get("match_id"),
        "seat_count": len(log_doc["seats"]),
        "forked_from": log_doc.get("forked_from"),
        **analysed,
    }


def public_record(analysis: str, record: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON answer of one analysis record: ``{"analysis_id", "status", "progress",
    "source", "match_id", "game", "budget", "result"?, "error"?}``."""
    out = {
        "analysis_id": analysis,
        "status": record["status"],
        "progress": int(record.get("progress", 0)),
        "source": record.get("source"),
        "match_id": record.get("match_id") or None,
        "game": record.get("game"),
        "budget": int(record.get("budget", 0)),
    }
    if "result" in record:
        out["result"] = record["result"]
    if record.get("error"):
        out["error"] = record["error"]
    return out


class Analyses:
    """The analysis use cases over a :class:`service.usecases.context.MatchContext`
    (``ctx``), the export reader (``reads``: :class:`service.usecases.reads.Reads`), the
    server's ``budget_cap`` (``ARENA_MAX_BOT_BUDGET``; 0 = :data:`MAX_BUDGET`) and
    ``per_client``, the analyses one client may have queued or running
    (``ARENA_MAX_ANALYSES_PER_CLIENT``; 0 = no cap)."""

    def __init__(self, ctx, reads, budget_cap: int = 0, per_client: int = 0):
        self.ctx = ctx
        self.reads = reads
        self.store = AnalysisStore(
            ctx.stores.redis, ctx.stores.keys, clock=lambda: self.ctx.clock().isoformat()
        )
        self.cap = min(budget_cap, MAX_BUDGET) if budget_cap else MAX_BUDGET
        self.per_client = per_client

    def _budget(self, budget: int | None) -> int:
        value = DEFAULT_BUDGET if budget is None else int(budget)
        if value > self.cap:
            raise AnalysisBudgetCapped(value, self.cap)
        if value < 1:
            raise errors.ServiceError(
                "validation_error",
                400,
                "budget must be at least 1.",
                errors={"budget": ["Must be at least 1."]},
            )
        return min(value, self.cap)

    def _head(self, record) -> str:
        """The hash of a finished match's last envelope (its record's head; the export's
        last ``hash`` for a record without one)."""
        return record.head_hash or self.reads.export(record.match_id)["events"][-1]["hash"]

    def _engine(self, game: str) -> Engine:
        engine = self.ctx.engine(game)
        if engine.estimator() is None:
            raise AnalysisUnavailable(game)
        return engine

    def request_match(
        self, match_id: str, budget: int | None = None, client: str | None = None
    ) -> tuple[dict[str, Any], bool]:
        """Analyse the finished match ``match_id`` with ``budget`` rollouts per decision
        (default :data:`DEFAULT_BUDGET`) for ``client`` (the API's client key; ``None``: an
        in-process caller, not capped). Returns ``(the record's answer, created)``.

        Raises MatchNotFound, MatchRunning (409 ``match_running``: not finished),
        AnalysisUnavailable, AnalysisBudgetCapped, TooManyAnalyses."""
        value = self._budget(budget)
        record = self.ctx.record(match_id)
        if not record.finished:
            raise errors.MatchRunning()
        self._engine(record.game)
        return self._start(
            analysis_id(record.game, self._head(record), value),
            {"source": "match", "match_id": match_id, "game": record.game, "budget": value},
            client=client,
        )

    def match_analysis(self, match_id: str, budget: int | None = None) -> dict[str, Any]:
        """The analysis of ``match_id`` with ``budget`` (default :data:`DEFAULT_BUDGET`).
        Raises MatchNotFound, MatchRunning, AnalysisNotFound (never requested)."""
        value = self._budget(budget)
        record = self.ctx.record(match_id)
        if not record.finished:
            raise errors.MatchRunning()
        return self.get(analysis_id(record.game, self._head(record), value))

    def request_upload(
        self, log_doc: Any, budget: int | None = None, client: str | None = None
    ) -> tuple[dict[str, Any], bool]:
        """Analyse an uploaded export once it verifies (:func:`service.log.verify.verify_log`),
        for ``client`` (as :meth:`request_match`). Returns ``(the record's answer, created)``.

        Raises InvalidLog (not an object), LogNotVerified, UnknownGame,
        AnalysisUnavailable, AnalysisBudgetCapped, TooManyAnalyses."""
        value = self._budget(budget)
        if not isinstance(log_doc, dict):
            raise errors.InvalidLog("an export must be a JSON object")
        checked = verify_log(log_doc, self.ctx.engines)
        if not checked["valid"]:
            raise LogNotVerified(checked["errors"])
        game = log_doc["game"]
        self._engine(game)
        head = log_doc["events"][-1]["hash"]
        return self._start(
            analysis_id(game, head, value),
            {"source": "upload", "match_id": "", "game": game, "budget": value},
            log=log_doc,
            client=client,
        )

    def _stale(self, record: Mapping[str, Any] | None) -> bool:
        """True when the analysis ``record`` is queued or running but was last written more
        than :data:`STALE_AFTER_S` ago (its job is lost)."""
        if record is None or record["status"] not in ("queued", "running"):
            return False
        written = datetime.fromisoformat(record.get("updated_at") or record["created_at"])
        return (self.ctx.clock() - written).total_seconds() > STALE_AFTER_S

    def _reserve(self, client: str, analysis: str) -> bool:
        """Count ``analysis`` (about to be created) among ``client``'s analyses below the
        cap; True when this call added it. Raises TooManyAnalyses when the client is at
        the cap even after the analyses no longer queued or running left its set."""
        outcome = self.store.reserve(client, analysis, self.per_client)
        if outcome == 0 and self.store.prune(client):
            outcome = self.store.reserve(client, analysis, self.per_client)
        if outcome == 0:
            raise TooManyAnalyses(self.per_client)
        return outcome == 1

    def _start(
        self,
        analysis: str,
        fields: dict[str, Any],
        log: Mapping[str, Any] | None = None,
        client: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        now = self.ctx.clock().isoformat()
        run = secrets.token_hex(4)
        existing = self.store.get(analysis)
        replace = self._stale(existing)
        counted = client if client and self.per_client else None
        if counted is not None:
            if existing is not None and existing["status"] != "failed" and not replace:
                counted = None  # answered from the cache: nothing new to run
            elif not self._reserve(counted, analysis):
                counted = None  # held already (a request of its own made it)
        created = self.store.create(
            analysis,
            {
                **fields,
                "status": "queued",
                "progress": 0,
                "created_at": now,
                "updated_at": now,
                "run": run,
                **({"client": client} if client else {}),
            },
            log=log,
            replace=replace,
        )
        if counted is not None and not created:
            self.store.release(counted, analysis)  # another request created it meanwhile
        if created and self.ctx.scheduler is not None:
            # a record that failed or lost its job kept its decisions: resume from them
            record = self.store.get(analysis) or {}
            self.ctx.scheduler.enqueue_analysis(
                analysis, record.get("next", 0), run, part=record.get("part", 0)
            )
        return self.get(analysis), created

    def get(self, analysis: str) -> dict[str, Any]:
        """The answer of one analysis (:func:`public_record`). Raises AnalysisNotFound."""
        record = self.store.get(analysis)
        if record is None:
            raise AnalysisNotFound(analysis)
        return public_record(analysis, record)

    def revive(self) -> int:
        """Reconcile's pass over the analyses not yet done or failed
        (:meth:`service.store.analysis_store.AnalysisStore.active`): one whose record is
        gone, done or failed leaves the list; one whose record was last written more than
        :data:`REVIVE_AFTER_S` ago gets the slice from its ``next`` turn (and ``part``)
        enqueued again
        unless that job is queued or running on a live worker (the scheduler's
        ``revive_analysis``), and is marked ``failed`` when that job raised too often.
        Returns how many slices it enqueued (0 without such a scheduler)."""
        revive = getattr(self.ctx.scheduler, "revive_analysis", None)
        if revive is None:
            return 0
        requeued = 0
        for analysis in self.store.active():
            record = self.store.get(analysis)
            if record is None or record["status"] not in ("queued", "running"):
                self.store.drop(analysis)
                continue
            written = datetime.fromisoformat(record.get("updated_at") or record["created_at"])
            if (self.ctx.clock() - written).total_seconds() < REVIVE_AFTER_S:
                continue
            outcome = revive(
                analysis, record.get("next", 0), record.get("run", ""), record.get("part", 0)
            )
            if outcome is None:
                self._end(
                    analysis,
                    record,
                    status="failed",
                    error="the analysis job failed repeatedly; request the analysis again",
                )
            else:
                requeued += int(outcome)
        return requeued

    def run(
        self, analysis: str, start: int = 0, part: int = 0, run: str | None = None
    ) -> dict[str, Any]:
        """Run the slice of the analysis ``analysis`` from turn ``start`` (a worker's job;
        ``part`` > 0: the slice goes on with the decision at ``start``, the record's
        ``pending``, for the ``part``-th time): at most ``max(1, SLICE_ROLLOUTS // budget)``
        turns and :data:`SLICE_ROLLOUTS` rollouts, and it ends after the rollout or turn it
        is on once :data:`SLICE_SECONDS` have passed (at least one rollout or turn); then
        the next slice is enqueued, or the result written after the last one. ``run``: the
        run token of the record the job was enqueued for (``None`` or empty: a job
        enqueued without one, not checked).
        ``{"status": ...}``: ``noop`` for a record that is gone or done, a slice that is
        not the next one (a duplicate job) or a job of another run (enqueued before the
        record was created again, which enqueued its own job for the same slice),
        ``running`` after a slice, ``done``, or ``failed`` (the reason in the record)."""
        record = self.store.get(analysis)
        if (
            record is None
            or record["status"] == "done"
            or (start, part) != (record.get("next", 0), record.get("part", 0))
            or (run and run != record.get("run"))
        ):
            return {"status": "noop"}
        if record["source"] == "match":
            log_doc = self.reads.export(record["match_id"])
        else:
            log_doc = self.store.log(analysis)
            if log_doc is None:
                self._end(analysis, record, status="failed", error="the uploaded export expired")
                return {"status": "failed"}
        engine = self.ctx.engine(record["game"])
        self.store.update(analysis, status="running")
        shown = [record.get("progress", 0)]

        def progress(done: float, total: int) -> None:
            # only ever up: a slice run again (its worker died after writing progress but
            # before its decisions) passes the percentages it showed already; ``done`` has
            # a fraction when the slice stopped inside a decision (its rollouts so far)
            percent = int((100 * done) // max(1, total))
            if shown[0] < percent < 100:
                shown[0] = percent
                self.store.update(analysis, progress=percent)

        setup, turns = turns_of(log_doc)
        budget = record["budget"]
        seed = str(log_doc["events"][-1]["hash"]).encode()
        deadline = monotonic() + SLICE_SECONDS
        try:
            done = analyse_slice(
                engine,
                setup,
                turns,
                budget,
                seed,
                start,
                start + max(1, SLICE_ROLLOUTS // budget),
                pending=record.get("pending") if part else None,
                progress=progress,
                enough=lambda rollouts: rollouts >= SLICE_ROLLOUTS or monotonic() >= deadline,
            )
        except (ValueError, KeyError, IndexError, TypeError) as error:
            log.warning("analysis %s failed: %s", analysis, error)
            self._end(analysis, record, status="failed", error=str(error))
            return {"status": "failed"}
        decisions = record.get("partial", []) + done.decisions
        if done.next < len(turns):
            # the slices that went into the decision at ``next`` so far: (next, part) only
            # ever grows, so a slice job met twice is a no-op
            after = 0 if done.pending is None else part + 1 if done.next == start else 1
            self.store.update(
                analysis, partial=decisions, next=done.next, part=after, pending=done.pending
            )
            if self.ctx.scheduler is not None:
                self.ctx.scheduler.enqueue_analysis(
                    analysis, done.next, record.get("run", ""), part=after
                )
            return {"status": "running"}
        result = result_document(log_doc, summary(engine, decisions, budget, len(log_doc["seats"])))
        self._end(analysis, record, status="done", progress=100, result=result)
        return {"status": "done"}

    def _end(self, analysis: str, record: Mapping[str, Any], **fields: Any) -> None:
        """Write the last ``fields`` of the analysis (``status`` ``done`` or ``failed``) and
        take it out of its client's analyses (the record's ``client``)."""
        self.store.update(analysis, **fields)
        if record.get("client"):
            self.store.release(record["client"], analysis)
