"""Issue 22 item 3, the fault test: a process running the end-of-match job is killed
(SIGKILL) mid-update, once before the checkpoint script ran and once right after it; the
job run again folds the match exactly once (the checkpoint script writes the ratings with
the checkpoint or nothing, and a repeat finds the checkpoint past the match)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.bootstrap import build_service

pytestmark = [pytest.mark.integration]

ROOT = Path(__file__).resolve().parents[2]
#: the job in a child process whose checkpoint script is wrapped: it writes the marker and
#: then hangs (to be killed) before or after the script ran
CHILD = """
import sys, time, pathlib
from service.bootstrap import build_service
svc = build_service()
store = svc._ratings.store
real = store.apply
marker, when = pathlib.Path(sys.argv[2]), sys.argv[3]
def apply(*args, **kwargs):
    if when == "before":
        marker.write_text("before"); time.sleep(600)
    ok = real(*args, **kwargs)
    if when == "after":
        marker.write_text("after"); time.sleep(600)
    return ok
store.apply = apply
svc.match_ended(sys.argv[1])
"""


def _killed_job(config, match_id: str, when: str, tmp_path: Path) -> None:
    marker = tmp_path / f"marker-{when}"
    env = {
        **os.environ,
        **config.to_env(),
        "ARENA_GAME_PACKAGES": "examples",
        "PYTHONPATH": str(ROOT),
    }
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, match_id, str(marker), when], cwd=ROOT, env=env
    )
    try:
        for _ in range(1200):  # bounded wait for the child to get there
            if marker.exists() or child.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), f"the child ended ({child.poll()}) before the update"
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()


def _rated_duel(service, ann):
    mid = service.create_match(
        "duel",
        [{"kind": "human"}, {"kind": "bot", "bot": "high"}],
        {"tricks": 1},
        player_key=ann["key"],
        rated=True,
    )["match_id"]
    seat = service.authenticate(mid, ann["key"])
    service.act(mid, seat, service.legal_actions(mid, seat)["actions"][0])
    service.run_bot_turn(mid, service._record(mid).version, 1)
    assert service._record(mid).finished
    return mid


def test_a_job_killed_mid_update_folds_its_match_exactly_once_when_run_again(real_config, tmp_path):
    config = real_config.with_(engines_path=None)
    service = build_service(config)
    ann = service.create_player("Ann")
    participant = f"player:{ann['player_id']}"
    for when in ("before", "after"):
        mid = _rated_duel(service, ann)
        _killed_job(config, mid, when, tmp_path)
        table, history = service._ratings.live_table()
        done = 0 if when == "before" else 1  # the script ran, or nothing was written
        previous = 1 if when == "after" else 0
        assert len(history.get(participant, [])) == previous + done
        again = service.match_ended(mid)
        assert again["folded"] == (1 - done)
        assert service.match_ended(mid)["folded"] == 0
        table, history = service._ratings.live_table()
        assert [p["match_id"] for p in history[participant]][-1] == mid
    table, history = service._ratings.live_table()
    assert table["duel:2p"][participant]["matches"] == 2 and len(history[participant]) == 2
    assert service.ratings_rebuild()["same"] is True
