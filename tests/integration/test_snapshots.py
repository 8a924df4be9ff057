"""Snapshots on a real Redis: O(tail) loads, ignorable, schema-versioned."""

import pytest

pytestmark = pytest.mark.integration


def _play(svc, mid, moves):
    for _ in range(moves):
        turn = svc.match_view(mid, None)["view"]["turn"]
        svc.act(mid, turn, {"type": "add", "amount": 1})


def test_loads_read_only_the_tail_after_the_snapshot(real_service, monkeypatch):
    mid = real_service.create_match("race", [{"kind": "human"}] * 2, {"target": 100})["match_id"]
    _play(real_service, mid, 13)  # 14 events; snapshot_every=5 -> snapshot at 10
    real_service.folds.clear()  # a process that never saw this match: snapshot + tail
    reads = []
    original = real_service.store.head
    monkeypatch.setattr(
        real_service.store, "head", lambda *a, **k: reads.append(original(*a, **k)) or reads[-1]
    )
    monkeypatch.setattr(real_service.store, "read", lambda *a, **k: pytest.fail("no other read"))
    assert real_service.match_view(mid, None)["view"]["total"] == 13
    # one head read: the snapshot at 10 and the 4 events after it
    assert [(r.start, [e["version"] for e in r.tail]) for r in reads] == [(10, [11, 12, 13, 14])]


def test_deleting_snapshots_changes_no_answer(real_service):
    mid = real_service.create_match("race", [{"kind": "human"}] * 3, {"target": 100})["match_id"]
    _play(real_service, mid, 22)

    def answers():
        return (
            [real_service.match_view(mid, s) for s in (0, 1, None)],
            [real_service.state_at(mid, 0, v) for v in (1, 5, 11, 23)],
            real_service.events(mid, 2, after=7),
            real_service.legal_actions(mid, 0),
        )

    assert real_service.redis.hget(real_service.keys.snap(mid), "version") == "20"
    before = answers()
    real_service.snapshots.delete(mid)
    real_service.folds.clear()  # nor the in-process fold cache
    assert answers() == before


def test_snapshot_of_another_schema_version_is_ignored(real_service):
    mid = real_service.create_match("race", [{"kind": "human"}] * 2, {"target": 100})["match_id"]
    _play(real_service, mid, 6)
    real_service.redis.hset(
        real_service.keys.snap(mid), mapping={"schema_version": 0, "state": '{"total": 999}'}
    )
    real_service.folds.clear()
    assert real_service.match_view(mid, None)["view"]["total"] == 6
