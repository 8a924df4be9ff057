"""The fault scripts' own checks can fail: a decision played twice is counted."""

from benchmarks._faults import decision_report, percentile, resume_times
from tests.support.runtime import drain

BOTS2 = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]


def test_a_decision_appended_twice_is_counted_as_a_duplicate(service):
    mid = service.create_match("race", BOTS2, {"target": 12})["match_id"]
    drain(service)
    events = service.export(mid)["events"]
    engine = service.engines["race"]
    clean = decision_report(engine, events)
    assert clean["duplicates"] == 0 and clean["decisions"] == len(
        [e for e in events if "command" in e]
    )
    # the second command batch again right after itself: its seat was no longer pending
    batch = [e for e in events if e.get("command_id") == events[2]["command_id"]]
    twice = events[: 2 + len(batch)] + [dict(e, command_id="again") for e in batch]
    assert decision_report(engine, twice)["duplicates"] == 1


def test_resume_times_wait_from_each_kill_to_each_running_match_next_event():
    times = {"a": [0.0, 1.0, 5.0], "b": [0.0, 2.5], "c": [3.0, 4.0]}
    got = resume_times([2.0], times)
    assert sorted(got["pairs"]) == [0.5, 3.0] and got["per_kill_worst"] == [3.0]
    assert got["slowest"] == [
        {"kill": 0, "match": "a", "wait_s": 3.0},
        {"kill": 0, "match": "b", "wait_s": 0.5},
    ]
    assert percentile([1, 2, 3, 4], 50) == 2 and percentile([], 99) == 0.0
