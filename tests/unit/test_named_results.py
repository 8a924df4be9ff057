"""The service answers with named results (issue 19 item 2), and one function orders a
command's checks (service.usecases.act.action_checks)."""

from __future__ import annotations

import json
import time

from domain.engine import MatchFinished
from service import errors
from service.store.snapshots import SnapshotStore
from service.usecases.act import action_checks
from workers.rq_runtime import check_heartbeat


def test_heartbeat_is_named(tmp_path):
    path = tmp_path / "beat"
    path.write_text(json.dumps({"at": time.time(), "redis": "ok"}))
    beat = check_heartbeat(path, 10)
    assert beat.healthy and beat.reason.startswith("worker alive")
    missing = check_heartbeat(tmp_path / "none", 10)
    assert (missing.healthy, missing.reason) == (False, f"no heartbeat file at {tmp_path / 'none'}")


def test_snapshot_is_named():
    snap = SnapshotStore.usable(
        {"version": "5", "game": "g", "schema_version": "1", "state": json.dumps({"a": 1})},
        "g",
        1,
        9,
    )
    assert (snap.version, snap.state) == (5, {"a": 1})


class _Engine:
    def __init__(self, finished=False, resigned=()):
        self.finished, self._resigned = finished, set(resigned)

    def result(self, _state):
        return {"winner": 0} if self.finished else None

    def resigned(self, _state):
        return self._resigned


class _Loaded:
    state, version = object(), 3


def _first(engine, **kwargs):
    rejection = action_checks(
        engine, _Loaded(), 1, lambda _l, _s: "d-now", cause="player", **kwargs
    )
    return None if rejection is None else type(rejection.error)


def test_action_checks_keep_one_order():
    every = dict(bad_command=True, bad_key=True, expected_version=2, decision="d-old")
    assert _first(_Engine(finished=True, resigned={1}), **every) is MatchFinished
    assert _first(_Engine(resigned={1}), **every) is errors.SeatResigned
    assert _first(_Engine(), **every).__name__ == "InvalidCommand"
    assert _first(_Engine(), expected_version=2, decision="d-old") is errors.VersionConflict
    assert _first(_Engine(), decision="d-old") is errors.DecisionMoved
    assert _first(_Engine(), expected_version=3, decision="d-now") is None
    # a bot's or timeout's command is not stopped by its seat's resignation
    assert (
        action_checks(_Engine(resigned={1}), _Loaded(), 1, lambda _l, _s: None, cause="timeout")
        is None
    )
