"""Ctrl-C or SIGTERM stops a test run and leaves no process behind (issue 19 item 7).

Each test starts pytest in a subprocess on a tiny test that holds processes of three kinds
and sleeps: the six redis-servers of the ``redis_cluster`` fixture (tests/conftest.py), a
process of its own in a new session (as workers, gunicorn and Chromium are started), and an
orphan whose parent already exited (a daemonized process). Once the tiny test says it is
ready, the run is sent SIGINT (a terminal's Ctrl-C) or SIGTERM (CI, ``timeout``); it must
end and none of those processes may survive. The limits are generous (a busy machine): no
duration is asserted beyond "it ended".
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.polling import wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not (shutil.which("redis-server") and shutil.which("redis-cli")),
        reason="redis-server / redis-cli not installed",
    ),
]

ROOT = Path(__file__).resolve().parents[2]

TINY_TEST = """
import os, subprocess, sys, time
from pathlib import Path


def test_holds_processes(redis_cluster):
    own = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(900)"],
                           start_new_session=True)
    orphan = subprocess.run(["bash", "-c", "sleep 900 >/dev/null 2>&1 & echo $!"],
                            capture_output=True, text=True, check=True).stdout.strip()
    pids = [proc.pid for proc in redis_cluster.procs.values()] + [own.pid, int(orphan)]
    out = Path(os.environ["ARENA_CLEANUP_PIDS"])
    out.with_suffix(".tmp").write_text(" ".join(map(str, pids)))
    out.with_suffix(".tmp").rename(out)
    time.sleep(900)
"""


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 :].split()[0] not in ("Z", "X")


def _run_and_stop(tmp_path: Path, sig: int, extra_args: list[str]) -> tuple[list[int], str]:
    """Start the tiny test's run, wait until it holds its processes, send ``sig``; returns
    (the processes' pids, the run's output) once the run ended."""
    (tmp_path / "test_tiny.py").write_text(TINY_TEST)
    pids_file = tmp_path / "pids"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARENA_CLEANUP_PIDS": str(pids_file)}
    env.pop("PYTEST_XDIST_WORKER", None)
    log = open(tmp_path / "run.log", "wb")
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "-q",
            *extra_args,
            "test_tiny.py",
        ],
        cwd=tmp_path,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    pids: list[int] = []
    try:
        assert wait_for(lambda: pids_file.exists() or run.poll() is not None, 300, 0.1)
        assert run.poll() is None, (tmp_path / "run.log").read_text()
        pids = [int(pid) for pid in pids_file.read_text().split()]
        assert all(_alive(pid) for pid in pids)
        os.kill(run.pid, sig)
        run.wait(timeout=120)
        assert wait_for(lambda: not any(_alive(pid) for pid in pids), 30, 0.1), (
            f"left behind: {[pid for pid in pids if _alive(pid)]}"
        )
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(timeout=30)
        for pid in pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    return pids, (tmp_path / "run.log").read_text()


def test_ctrl_c_ends_the_run_and_no_cluster_node_or_started_process_survives(tmp_path):
    pids, output = _run_and_stop(tmp_path, signal.SIGINT, [])
    assert len(pids) == 8
    assert "KeyboardInterrupt" in output or "Interrupted" in output, output


def test_sigterm_to_an_xdist_run_ends_it_and_no_process_of_its_workers_survives(tmp_path):
    pids, output = _run_and_stop(tmp_path, signal.SIGTERM, ["-n", "1"])
    assert len(pids) == 8, output


def test_sigterm_to_a_plain_run_ends_it_and_no_process_survives(tmp_path):
    pids, _ = _run_and_stop(tmp_path, signal.SIGTERM, [])
    assert len(pids) == 8
