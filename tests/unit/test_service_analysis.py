"""The analysis use cases (issue 23 item 3) on an embedded service without workers: a
request creates one record and enqueues one job, a second request for the same match and
budget answers the record (the cache), a record whose job was lost (not written for
longer than ``STALE_AFTER_S``) or that failed is started again, the worker's run writes
progress and the result, and platform commands (a resignation) are not decisions."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from service.usecases.analysis import STALE_AFTER_S
from tests.support.exports import new_service


@pytest.fixture
def service(monkeypatch):
    from service.usecases import analysis as usecase

    # slices cut by rollouts only: a slice's wall-clock bound (SLICE_SECONDS) has its own
    # test, on a clock of its own
    monkeypatch.setattr(usecase, "SLICE_SECONDS", float("inf"))
    return new_service()


def _finished_duel(service, seed: int = 1, resign_after: int | None = None) -> str:
    mid = service.create_match("duel", [{"kind": "human"}, {"kind": "human"}], {"tricks": 4})[
        "match_id"
    ]
    rng = random.Random(seed)
    acted = 0
    while service.match_view(mid, None)["status"] != "finished":
        if resign_after is not None and acted == resign_after:
            service.resign(mid, 1)
            break
        for seat in (0, 1):
            legal = service.legal_actions(mid, seat)["actions"]
            if legal:
                service.act(mid, seat, rng.choice(legal))
                acted += 1
    return mid


def _jobs(service) -> int:
    return len(service.scheduler.analysis_queue)


def test_one_record_one_job_then_the_cache(service):
    mid = _finished_duel(service)
    first, created = service.request_analysis(mid, 20)
    assert created and first["status"] == "queued" and _jobs(service) == 1
    again, created = service.request_analysis(mid, 20)
    assert not created and again == first and _jobs(service) == 1
    other, created = service.request_analysis(mid, 21)  # another budget: another one
    assert created and other["analysis_id"] != first["analysis_id"]
    assert service.run_analysis(first["analysis_id"]) == {"status": "done"}
    done = service.analysis(first["analysis_id"])
    assert (done["status"], done["progress"]) == ("done", 100)
    assert len(done["result"]["decisions"]) == 8
    assert service.run_analysis(first["analysis_id"]) == {"status": "noop"}


def test_a_lost_job_is_started_again_by_the_next_request(service):
    mid = _finished_duel(service, seed=2)
    first, _ = service.request_analysis(mid, 20)
    store = service._analyses.store
    old = datetime.now(UTC) - timedelta(seconds=STALE_AFTER_S - 60)
    service.ctx.stores.redis.hset(
        service.keys.analysis(first["analysis_id"]), "updated_at", old.isoformat()
    )
    assert service.request_analysis(mid, 20)[1] is False  # not stale yet
    lost = datetime.now(UTC) - timedelta(seconds=STALE_AFTER_S + 60)
    service.ctx.stores.redis.hset(
        service.keys.analysis(first["analysis_id"]), "updated_at", lost.isoformat()
    )
    answer, created = service.request_analysis(mid, 20)
    assert created and answer["status"] == "queued"
    store.update(first["analysis_id"], status="failed", error="boom")
    assert service.request_analysis(mid, 20)[1] is True  # a failed one is made again


def test_a_resignation_is_no_decision(service):
    mid = _finished_duel(service, seed=3, resign_after=2)
    answer, _ = service.request_analysis(mid, 10)
    assert service.run_analysis(answer["analysis_id"]) == {"status": "done"}
    result = service.analysis(answer["analysis_id"])["result"]
    assert [(d["version"], d["seat"]) for d in result["decisions"]] == [(3, 0), (4, 1)]


def test_a_long_analysis_runs_in_slices_with_the_same_result(service, monkeypatch):
    """With room for 3 turns per job the analysis of an 8-turn match takes 3 jobs, each
    enqueuing the next; the result equals the in-process analysis; a duplicate or
    out-of-order slice job does nothing."""
    from domain.analysis import analyse
    from domain.games import registry
    from service.usecases import analysis as usecase

    monkeypatch.setattr(usecase, "SLICE_ROLLOUTS", 3 * 20)
    mid = _finished_duel(service, seed=4)
    answer, _ = service.request_analysis(mid, 20)
    aid = answer["analysis_id"]
    assert service.run_analysis(aid, 3) == {"status": "noop"}  # not the next slice
    assert service.run_analysis(aid, 0) == {"status": "running"}
    assert service.analysis(aid)["status"] == "running" and _jobs(service) == 2
    assert service.run_analysis(aid, 0) == {"status": "noop"}  # a duplicate
    assert service.run_analysis(aid, 3) == {"status": "running"}
    assert service.run_analysis(aid, 6) == {"status": "done"}
    result = service.analysis(aid)["result"]
    log = service.export(mid)
    setup, turns = usecase.turns_of(log)
    expected = analyse(
        registry()["duel"], setup, turns, 20, log["events"][-1]["hash"].encode(), seat_count=2
    )
    assert {k: result[k] for k in expected} == expected
    assert "partial" not in service._analyses.store.get(aid)


def test_a_game_without_an_estimator_answers_analysis_unavailable():
    """The platform's test game High Card has no estimator: 422 ``analysis_unavailable``
    (a match request and an upload of its export alike), and nothing is enqueued."""
    import uuid

    from service.bootstrap import build_service
    from service.config import Config
    from service.usecases.analysis import AnalysisUnavailable
    from tests.support.games import ENGINES

    games = build_service(Config(key_prefix=f"an-{uuid.uuid4().hex[:8]}"), ENGINES)
    mid = games.create_match("high-card", [{"kind": "human"}, {"kind": "human"}], {"rounds": 1})[
        "match_id"
    ]
    for seat in (0, 1):
        games.act(mid, seat, games.legal_actions(mid, seat)["actions"][0])
    assert games.match_view(mid, None)["status"] == "finished"
    with pytest.raises(AnalysisUnavailable) as refused:
        games.request_analysis(mid)
    assert (refused.value.code, refused.value.status) == ("analysis_unavailable", 422)
    with pytest.raises(AnalysisUnavailable):
        games.request_log_analysis(games.export(mid))
    assert len(games.scheduler.analysis_queue) == 0


def test_reconcile_revives_a_lost_slice_and_fails_an_analysis_whose_job_keeps_raising(service):
    """A slice job that ended without running its slice (a store outage: the job ends
    ``store_unavailable``) left the analysis ``running`` until a new request came after
    ``STALE_AFTER_S`` (an hour). Every reconcile pass now enqueues it again; a slice whose
    job *raised* ``max_attempts`` times marks the analysis ``failed`` with the reason."""
    from rq.job import Job, JobStatus

    from service.usecases.analysis import REVIVE_AFTER_S

    mid = _finished_duel(service, seed=5)
    answer, _ = service.request_analysis(mid, 20)
    aid = answer["analysis_id"]
    store, queue = service._analyses.store, service.scheduler.analysis_queue
    assert store.active() == [aid]

    def age() -> None:  # the record was last written long enough ago
        old = datetime.now(UTC) - timedelta(seconds=REVIVE_AFTER_S + 1)
        service.ctx.stores.redis.hset(service.keys.analysis(aid), "updated_at", old.isoformat())

    age()
    assert service.reconcile(full=False)["requeued"] == 0 and len(queue) == 1  # queued: alive
    job_id = queue.job_ids[0]

    def ended(status) -> None:  # the worker took the job, which ended with ``status``
        job = Job.fetch(job_id, connection=queue.connection)
        queue.remove(job)
        job.set_status(status)

    ended(JobStatus.FINISHED)  # store_unavailable: nothing ran
    assert service.reconcile(full=False)["requeued"] == 1 and queue.job_ids == [job_id]
    for _ in range(service.scheduler.max_attempts - 1):
        ended(JobStatus.FAILED)
        assert service.reconcile(full=False)["requeued"] == 1 and queue.job_ids == [job_id]
    ended(JobStatus.FAILED)  # the last attempt raised too
    service.reconcile(full=False)
    failed = service.analysis(aid)
    assert failed["status"] == "failed" and "failed repeatedly" in failed["error"]
    assert store.active() == []
    # requested again, it runs; a done analysis leaves the list too
    again, created = service.request_analysis(mid, 20)
    assert created and store.active() == [aid]
    assert service.run_analysis(aid, 0) == {"status": "done"}
    assert store.active() == []


def _progress_seen(service, monkeypatch) -> list[int]:
    """Every ``progress`` an analysis record is given from now on (the store's writes)."""
    store = service._analyses.store
    seen: list[int] = []
    write = store.update

    def update(analysis_id, **fields):
        if "progress" in fields:
            seen.append(int(fields["progress"]))
        write(analysis_id, **fields)

    monkeypatch.setattr(store, "update", update)
    return seen


def test_progress_never_goes_back_when_a_slice_runs_again(service, monkeypatch):
    """A worker killed in the middle of a slice had written its progress (62% of an
    8-turn match) but not the slice's decisions; the slice run again from its first turn
    wrote 50% (the probe saw 12% -> 8%). It now passes the percentages shown already."""
    from service.usecases import analysis as usecase

    monkeypatch.setattr(usecase, "SLICE_ROLLOUTS", 3 * 20)  # 3 turns a slice
    mid = _finished_duel(service, seed=6)
    aid = service.request_analysis(mid, 20)[0]["analysis_id"]
    assert service.run_analysis(aid, 0) == {"status": "running"}
    assert service.analysis(aid)["progress"] == 37  # 3 of 8 turns
    service._analyses.store.update(aid, progress=62)  # the killed job's last write (5 of 8)
    seen = _progress_seen(service, monkeypatch)
    assert service.run_analysis(aid, 3) == {"status": "running"}
    assert seen == [75] and service.analysis(aid)["progress"] == 75
    assert service.run_analysis(aid, 6) == {"status": "done"}
    assert seen == [75, 87, 100]


def test_an_analysis_started_again_resumes_from_its_decisions(service, monkeypatch):
    """An analysis whose job was lost (or that failed) is created again by the next
    request; it started from 0% and the first turn, dropping the decisions of its slices
    done. It now keeps them: queued at its progress, its one job from the next turn, and
    the same result as the in-process analysis."""
    from domain.analysis import analyse
    from domain.games import registry
    from service.usecases import analysis as usecase

    monkeypatch.setattr(usecase, "SLICE_ROLLOUTS", 3 * 20)
    mid = _finished_duel(service, seed=7)
    aid = service.request_analysis(mid, 20)[0]["analysis_id"]
    assert service.run_analysis(aid, 0) == {"status": "running"}
    lost = datetime.now(UTC) - timedelta(seconds=STALE_AFTER_S + 60)
    service.ctx.stores.redis.hset(service.keys.analysis(aid), "updated_at", lost.isoformat())
    service.scheduler.analysis_queue.empty()
    again, created = service.request_analysis(mid, 20)
    assert created and (again["status"], again["progress"]) == ("queued", 37)
    (job,) = service.scheduler.analysis_queue.jobs
    assert job.args[1] == 3  # from the next turn
    assert service.run_analysis(aid, 3) == {"status": "running"}
    service._analyses.store.update(aid, status="failed", error="boom")
    again, created = service.request_analysis(mid, 20)
    assert created and (again["status"], again["progress"]) == ("queued", 75)
    assert service.run_analysis(aid, 6) == {"status": "done"}
    log = service.export(mid)
    setup, turns = usecase.turns_of(log)
    expected = analyse(
        registry()["duel"], setup, turns, 20, log["events"][-1]["hash"].encode(), seat_count=2
    )
    result = service.analysis(aid)["result"]
    assert {k: result[k] for k in expected} == expected


def _rollouts(monkeypatch) -> list[int]:
    """A counter of Duel's rollouts (``[n]``), the estimator's ``_rollout`` wrapped."""
    from examples.duel import estimator

    counted = [0]
    real = estimator._rollout

    def rollout(*args):
        counted[0] += 1
        return real(*args)

    monkeypatch.setattr(estimator, "_rollout", rollout)
    return counted


def _fake_clock(monkeypatch, counted: list[int], seconds_per_rollout: float) -> None:
    """The slices' clock (``monotonic``) reads ``seconds_per_rollout`` per rollout run so
    far: each rollout takes that long, and nothing else any time."""
    from service.usecases import analysis as usecase

    monkeypatch.setattr(usecase, "monotonic", lambda: seconds_per_rollout * counted[0])


def _drain(service, aid: str, counted: list[int]) -> list[tuple[int, int, int]]:
    """Run the analysis's slice jobs as the worker would, one after the other, until none
    is queued: ``(start, part, rollouts)`` of each."""
    queue = service.scheduler.analysis_queue
    ran = []
    while queue.count:
        (job,) = queue.jobs
        queue.remove(job)
        start, part = job.args[1], (job.args[2] if len(job.args) > 2 else 0)
        before = counted[0]
        assert service.run_analysis(aid, start, part)["status"] in ("running", "done")
        ran.append((start, part, counted[0] - before))
    return ran


def _expected(service, mid: str, budget: int) -> dict:
    """The in-process analysis of ``mid`` with ``budget`` (one uninterrupted run)."""
    from domain.analysis import analyse
    from domain.games import registry
    from service.usecases.analysis import turns_of

    log = service.export(mid)
    setup, turns = turns_of(log)
    seed = log["events"][-1]["hash"].encode()
    return analyse(registry()["duel"], setup, turns, budget, seed, seat_count=2)


def test_a_slice_ends_when_its_time_is_up(service, monkeypatch):
    """A slice of 2,048 rollouts held its worker 20-30 s (AI: 100% Human), and every bot
    turn queued meanwhile waited for it. A slice now ends once ``SLICE_SECONDS`` have
    passed, after the rollout it is on: here each rollout takes 0.05 s of a fake clock
    against 1 s, so every slice runs 20 rollouts at most (the decisions of the 8-turn
    match take up to 20 each at budget 20, so slices end inside decisions too), each job
    enqueuing the next, with the same result as the in-process analysis."""
    from service.usecases import analysis as usecase

    counted = _rollouts(monkeypatch)
    monkeypatch.setattr(usecase, "SLICE_SECONDS", 1.0)
    _fake_clock(monkeypatch, counted, 0.05)
    mid = _finished_duel(service, seed=8)
    aid = service.request_analysis(mid, 20)[0]["analysis_id"]
    ran = _drain(service, aid, counted)
    assert service.analysis(aid)["status"] == "done"
    assert max(n for _, _, n in ran) == 20 and any(part for _, part, _ in ran)
    assert [(start, part) for start, part, _ in ran] == sorted({(s, p) for s, p, _ in ran})
    result = service.analysis(aid)["result"]
    expected = _expected(service, mid, 20)
    assert {k: result[k] for k in expected} == expected


def test_a_slice_at_budget_512_stops_inside_its_decision_and_the_next_goes_on(service, monkeypatch):
    """At budget 512 (the server's cap) one decision is 512 rollouts: a slice ended only
    between decisions, so it held its worker for a whole one (16.8-31.2 s in a probe on a
    busy machine). Here each rollout takes 10 ms of a fake clock: the first slice stops
    after 100 rollouts inside the first decision, keeps the decision's per-card sums in
    the record (``pending``; ``next`` 0, ``part`` 1) and enqueues the slice that goes on
    with it; no slice runs more than 100 rollouts, all of them together no more than one
    uninterrupted run, the progress never goes back, and the result is that run's."""
    from service.usecases import analysis as usecase

    counted = _rollouts(monkeypatch)
    monkeypatch.setattr(usecase, "SLICE_SECONDS", 1.0)
    _fake_clock(monkeypatch, counted, 0.01)
    mid = _finished_duel(service, seed=10)
    aid = service.request_analysis(mid, 512)[0]["analysis_id"]
    store, queue = service._analyses.store, service.scheduler.analysis_queue
    (first,) = queue.jobs
    queue.remove(first)
    assert first.args == (aid, 0)
    assert service.run_analysis(aid, 0) == {"status": "running"}
    assert counted[0] == 100
    record = store.get(aid)
    assert (record["next"], record["part"], record["partial"]) == (0, 1, [])
    pending = record["pending"]
    assert (pending["version"], pending["stage"]) == (_expected_first_version(service, mid), "all")
    assert sum(pending["estimate"]["counts"]) + len(pending["estimate"]["row"]) == 100
    (job,) = queue.jobs
    assert job.args == (aid, 0, 1) and job.id == first.id + "-p1"
    assert service.run_analysis(aid, 0) == {"status": "noop"}  # the slice that ran
    seen = _progress_seen(service, monkeypatch)
    ran = _drain(service, aid, counted)
    assert ran[0] == (0, 1, 100) and max(n for _, _, n in ran) == 100
    assert seen == sorted(seen) and seen[-1] == 100
    assert service.run_analysis(aid, 0, 1) == {"status": "noop"}  # done
    record = store.get(aid)
    assert not {"partial", "part", "pending"} & set(record)
    whole = counted[0]
    expected = _expected(service, mid, 512)
    assert counted[0] - whole == sum(n for _, _, n in ran) + 100  # the in-process run's
    result = service.analysis(aid)["result"]
    assert {k: result[k] for k in expected} == expected


def test_a_job_of_an_earlier_run_is_a_noop(service, monkeypatch):
    """An analysis that failed is created again with a new ``run`` token and its slice
    enqueued anew (the token is part of the job id, so both jobs are queued). The job of
    the earlier run, still queued, computed the same slice again (its rollouts twice): it
    is now a no-op, as is any job whose token is not the record's. The new run's job runs;
    a job without a token (enqueued before tokens were passed to the job) still runs."""
    from service.usecases import analysis as usecase

    monkeypatch.setattr(usecase, "SLICE_ROLLOUTS", 3 * 20)  # 3 turns a slice
    counted = _rollouts(monkeypatch)
    mid = _finished_duel(service, seed=12)
    aid = service.request_analysis(mid, 20)[0]["analysis_id"]
    queue, store = service.scheduler.analysis_queue, service._analyses.store
    (old,) = queue.jobs
    store.update(aid, status="failed", error="boom")
    again, created = service.request_analysis(mid, 20)
    assert created and again["status"] == "queued"
    (new,) = [job for job in queue.jobs if job.id != old.id]
    assert old.args == new.args == (aid, 0)
    assert old.kwargs["run"] != new.kwargs["run"] == store.get(aid)["run"]
    assert service.run_analysis(*old.args, **old.kwargs) == {"status": "noop"}
    assert counted[0] == 0 and store.get(aid)["status"] == "queued"
    assert service.run_analysis(*new.args, **new.kwargs) == {"status": "running"}
    assert service.run_analysis(aid, 3, run="other") == {"status": "noop"}
    assert service.run_analysis(aid, 3) == {"status": "running"}  # no token: runs


def test_progress_counts_the_rollouts_of_the_decision_under_way(service, monkeypatch):
    """At budget 512 one A.I.Pokalypse decision took about 30 one-second slices, and the
    percent stood still through them: it moved only when a decision was done. A slice that
    stops inside a decision now counts the decision's rollouts so far (those of its
    earlier slices too: the record's ``pending`` keeps them) as a part of the decision:
    here every slice runs 150 rollouts and ends inside the first decision of 512, no
    decision is done, and each slice writes a higher percent than the one before, below
    the first decision's whole share (1 turn of 8: 12%)."""
    from service.usecases import analysis as usecase

    monkeypatch.setattr(usecase, "SLICE_ROLLOUTS", 150)  # 150 rollouts a slice
    mid = _finished_duel(service, seed=11)
    turns = len(usecase.turns_of(service.export(mid))[1])
    aid = service.request_analysis(mid, 512)[0]["analysis_id"]
    store = service._analyses.store
    shown = [store.get(aid)["progress"]]
    for part in range(3):
        assert service.run_analysis(aid, 0, part) == {"status": "running"}
        record = store.get(aid)
        assert (record["next"], record["part"], record["partial"]) == (0, part + 1, [])
        assert record["pending"]["rollouts"] == 150 * (part + 1)
        shown.append(record["progress"])
    assert shown[0] < shown[1] < shown[2] < shown[3] < 100 // turns, shown


def _expected_first_version(service, mid: str) -> int:
    """The version of the first decision of ``mid``'s log."""
    from service.usecases.analysis import turns_of

    return turns_of(service.export(mid))[1][0].version


def test_a_decision_split_between_slices_resumes_after_a_lost_or_failed_slice(service, monkeypatch):
    """A slice that stopped inside a decision leaves it in the record. Its next slice is
    lost (a worker killed): reconcile enqueues it again with the same ``part``; the
    analysis failed instead: the next request creates it again from the same decision
    (``pending`` kept), and the analysis ends with the in-process result, each rollout run
    once."""
    from service.usecases import analysis as usecase
    from service.usecases.analysis import REVIVE_AFTER_S

    counted = _rollouts(monkeypatch)
    monkeypatch.setattr(usecase, "SLICE_ROLLOUTS", 150)  # 150 rollouts a slice, 1 turn
    mid = _finished_duel(service, seed=11)
    aid = service.request_analysis(mid, 512)[0]["analysis_id"]
    queue, store = service.scheduler.analysis_queue, service._analyses.store
    queue.empty()
    assert service.run_analysis(aid, 0) == {"status": "running"} and counted[0] == 150
    queue.empty()  # the next slice's job is lost
    old = datetime.now(UTC) - timedelta(seconds=REVIVE_AFTER_S + 1)
    service.ctx.stores.redis.hset(service.keys.analysis(aid), "updated_at", old.isoformat())
    assert service.reconcile(full=False)["requeued"] == 1
    (job,) = queue.jobs
    assert job.args == (aid, 0, 1)
    queue.empty()
    assert service.run_analysis(aid, 0, 1) == {"status": "running"} and counted[0] == 300
    pending = store.get(aid)["pending"]
    queue.empty()
    store.update(aid, status="failed", error="boom")
    again, created = service.request_analysis(mid, 512)
    assert created and again["status"] == "queued"
    assert store.get(aid)["pending"] == pending
    (job,) = queue.jobs
    assert job.args == (aid, 0, 2)
    ran = _drain(service, aid, counted)
    assert ran[0] == (0, 2, 150) and service.analysis(aid)["status"] == "done"
    split = counted[0]
    expected = _expected(service, mid, 512)
    assert counted[0] - split == split  # every rollout once
    result = service.analysis(aid)["result"]
    assert {k: result[k] for k in expected} == expected


def test_the_decisions_a_fork_copied_are_marked_and_left_out_of_its_seats(service):
    """A fork's log begins with the decisions of the match it was forked from, made by
    that match's seats; its analysis credited them to the fork's seats (cat and dan were
    charged with ann's and bob's moves). They are now ``from_parent`` (still valued: the
    curve goes through them) and the seats' summaries count the fork's own decisions only;
    the result names the parent (``forked_from``)."""
    from service.usecases.analysis import turns_of

    mid = _finished_duel(service, seed=9)
    _, parent_turns = turns_of(service.export(mid))
    at = parent_turns[4].version  # after 4 commands (2 tricks)
    names = [{"kind": "human", "name": "cat"}, {"kind": "human", "name": "dan"}]
    fork = service.fork(mid, at, names)["match_id"]
    rng = random.Random(9)
    while service.match_view(fork, None)["status"] != "finished":
        for seat in (0, 1):
            legal = service.legal_actions(fork, seat)["actions"]
            if legal:
                service.act(fork, seat, rng.choice(legal))
    aid = service.request_analysis(fork, 20)[0]["analysis_id"]
    assert service.run_analysis(aid) == {"status": "done"}
    result = service.analysis(aid)["result"]
    assert result["forked_from"] == {"match_id": mid, "version": at}
    decisions = result["decisions"]
    assert [d["from_parent"] for d in decisions] == [d["version"] < at for d in decisions]
    assert sum(d["from_parent"] for d in decisions) == 4 and len(decisions) == 8
    for seat in result["seats"]:
        own = [d for d in decisions if d["seat"] == seat["seat"] and not d["from_parent"]]
        assert seat["decisions"] == len(own) == 2
        scored = [d["accuracy"] for d in own if d["accuracy"] is not None]
        assert seat["accuracy"] == (round(sum(scored) / len(scored), 6) if scored else None)
    # the parent's own analysis: no fork, nothing copied
    parent = service.request_analysis(mid, 20)[0]["analysis_id"]
    service.run_analysis(parent)
    done = service.analysis(parent)["result"]
    assert done["forked_from"] is None and not any(d["from_parent"] for d in done["decisions"])
