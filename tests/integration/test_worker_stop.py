"""``arena worker`` stops when told (issue 18 item 3): SIGTERM (``docker stop``) or SIGINT
(Ctrl+C) to a REAL worker process (``python -m workers.runner``) ends it with exit status 0 —
at once when idle, after its running turn (appended exactly once) when busy.

The waits are generous (a busy 2-core box); the measured exit time of an idle worker is
reported by ``benchmarks/fault_worker_kill.py`` (``sigterm_exit_s``)."""

import signal
import subprocess
import time

import pytest
from rq import Worker
from rq.registry import StartedJobRegistry

from tests.support.polling import wait_for

pytestmark = pytest.mark.integration


def _idle_rq_workers(service) -> list:
    return [w for w in Worker.all(queue=service.scheduler.queue) if w.get_state() == "idle"]


def _exit_status(proc: subprocess.Popen, timeout_s: float) -> int | None:
    try:
        return proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return None


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_an_idle_worker_exits_0_when_signalled(real_service, start_worker, sig):
    worker = start_worker(ready=True)
    # in RQ's idle loop (registered, waiting on the queue)
    assert wait_for(lambda: _idle_rq_workers(real_service), 120), "no RQ worker registered"
    time.sleep(1)
    worker.send_signal(sig)  # the process itself, as `docker stop` signals PID 1
    assert _exit_status(worker, 60) == 0, "the idle worker did not exit (status 0) when told"


def test_a_worker_waiting_for_its_queue_redis_exits_0_when_signalled(start_worker, tmp_path):
    """Before RQ's loop installs its handlers (here: RQ registers the worker in a Redis that
    does not answer, retrying forever) a stop signal also ends the worker, status 0."""
    import socket

    with socket.socket() as sock:  # a loopback port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    beat = tmp_path / "heartbeat"
    worker = start_worker(rq_redis_url=f"redis://127.0.0.1:{port}/0", heartbeat_file=str(beat))
    # the lease's first beat (failed: Redis down) is written just before RQ's loop starts
    assert wait_for(lambda: worker.poll() is not None or beat.exists(), 300, 0.1)
    assert worker.poll() is None
    worker.send_signal(signal.SIGTERM)
    assert _exit_status(worker, 60) == 0


def test_a_busy_worker_finishes_its_turn_once_then_exits_0(real_service, start_worker):
    worker = start_worker(ready=True)
    bots = [{"kind": "bot", "bot": "slow"}, {"kind": "bot", "bot": "slow"}]
    mid = real_service.create_match("race", bots, {"target": 15, "bot_delay_s": 2})["match_id"]
    started = StartedJobRegistry(queue=real_service.scheduler.queue)
    assert wait_for(lambda: started.get_job_ids(cleanup=False), 120), "no bot turn started"
    version = real_service.match_view(mid, None)["version"]
    worker.send_signal(signal.SIGTERM)
    assert _exit_status(worker, 120) == 0, "the busy worker did not exit (status 0)"
    # the running turn was appended, once, and the worker took no further job
    events = real_service.log(mid)
    decided = [
        e for e in events if e["version"] > version and e.get("cause") == "bot" and "command" in e
    ]
    assert len(decided) == 1, decided
    assert real_service.match_view(mid, None)["version"] == events[-1]["version"]
    assert started.get_job_ids(cleanup=False) == []
    # a new worker plays the rest; nothing was decided twice
    start_worker(ready=True)
    assert wait_for(lambda: real_service.match_view(mid, None)["status"] == "finished", 240)
    assert real_service.verify(real_service.export(mid))["valid"] is True
