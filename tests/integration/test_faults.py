"""Small runs of the fault scripts (benchmarks/fault_redis_outage.py,
benchmarks/fault_worker_kill.py) against a private ``redis-server`` each: assertions on
answers, completion and exactly-once only; their timing figures are printed by the
scripts, never asserted here beyond generous bounds."""

import shutil

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
]


def test_a_redis_outage_answers_503_with_retry_after_and_every_match_finishes_after_it(tmp_path):
    from benchmarks.fault_redis_outage import run_outage

    figures = run_outage(matches=3, workers=2, outage_s=3.0, timeout_s=300, work_dir=str(tmp_path))
    assert figures["status_500"] == 0, figures
    assert set(figures["answers_during_outage_by_status"]) == {"503"}, figures
    assert set(figures["answers_during_outage_by_code"]) == {"store_unavailable"}, figures
    assert figures["503_without_retry_after"] == 0
    assert set(figures["healthz_during_outage_by_status"]) == {"503"}
    assert figures["healthz_after_restart_ok"]
    assert figures["workers_alive_during_outage"] == figures["workers_alive_at_end"] == 2
    assert figures["finished"] == figures["verified"] == figures["matches"] == 4, figures


def test_killing_workers_at_random_loses_no_turn_and_plays_no_decision_twice(tmp_path):
    from benchmarks.fault_worker_kill import run_worker_kill

    figures = run_worker_kill(
        matches=4,
        workers=2,
        kill_every=(1.0, 2.5),
        timeout_s=400,
        timed_every=4,
        max_kills=6,
        work_dir=str(tmp_path),
    )
    print(figures)
    assert figures["kills"] >= 1
    assert figures["unfinished"] == [], figures
    assert figures["finished"] == figures["verified"] == 4
    assert set(figures["finished_per_game"]) == {"ai-100-human", "aipokalypse", "dead-apocalypse"}
    assert figures["duplicate_decisions"] == 0, figures
    assert figures["workers_alive_at_end"] == 2
    assert figures["resume_per_kill_s"]["max"] < 120  # generous: the script prints p99
    # the idle survivors stop on SIGTERM with status 0 (the script prints the times)
    assert figures["sigterm_exit_statuses"] == [0, 0], figures
    assert figures["turn_timeouts"]["acted"] >= 1, figures
