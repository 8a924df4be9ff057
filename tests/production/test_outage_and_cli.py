"""A stack of its own on a private ``redis-server`` (benchmarks/_faults.py ``PrivateRedis``)
for what the shared stacks cannot do: start with no worker, and lose Redis.

- ``arena play --auto --url`` against gunicorn while no worker runs yet: the client
  long-polls for the bot's move (``wait=10``) for longer than the store's socket timeout;
  before issue 18's fix that long-poll answered 503 ``store_unavailable`` after ~5 s and
  ``arena play`` exited with it. Once a worker is started the match plays to its result.
- Redis killed while long-polls and an SSE stream wait: the long-polls answer 503
  ``store_unavailable`` (with ``Retry-After``), the stream ends; neither hangs, and the log
  has no traceback (one WARNING line each).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.e2e.http_helpers import Http
from tests.production.helpers import CLIENT_TIMEOUT_S, Background, two_humans
from tests.support.production import ROOT, ProductionStack

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="redis-server is not installed"
)
#: generous bound for `arena play` to finish a match on a loaded machine (not asserted)
PLAY_TIMEOUT_S = 600


@pytest.fixture(scope="module")
def private_redis(tmp_path_factory) -> Iterator[Any]:
    """A ``redis-server`` of this module's own (killed and restarted by its tests)."""
    sys.path.insert(0, str(ROOT))
    from benchmarks._faults import PrivateRedis

    server = PrivateRedis(tmp_path_factory.mktemp("private-redis")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def lone_stack(private_redis, tmp_path_factory) -> Iterator[ProductionStack]:
    """gunicorn (the image's settings) on the private Redis, no worker yet."""
    stack = ProductionStack(
        private_redis.url(0), tmp_path_factory.mktemp("lone-stack"), workers=0
    ).start()
    try:
        yield stack
    finally:
        stack.stop()


def test_arena_play_holds_its_long_polls_until_a_worker_plays_the_bots(lone_stack):
    env = {**lone_stack.env(), "COLUMNS": "200"}
    env.pop("REDIS_URL", None)
    play = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from cli.main import main; main()",
            "play",
            "--url",
            lone_stack.url,
            "--game",
            "dead-apocalypse",
            "--seats",
            "2",
            "--bots",
            "cooperative",
            "--option",
            "turn_limit=20",
            "--auto",
            "--quiet",
            "--seed",
            "3",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        # No worker: the bot seat cannot move, so `arena play` long-polls (10 s each) for
        # its move. Two such polls in a row outlast the socket timeout whatever the load.
        time.sleep(12)
        assert play.poll() is None, play.communicate()
        lone_stack.start_worker()
        stdout, stderr = play.communicate(timeout=PLAY_TIMEOUT_S)
    finally:
        if play.poll() is None:
            play.kill()
            play.communicate()
    assert play.returncode == 0, stderr[-3000:] + lone_stack.logs()
    assert "final result of match" in stdout, stdout[-3000:]


def test_redis_going_away_mid_wait_answers_503_and_ends_the_stream(lone_stack, private_redis):
    http = Http(lone_stack.url)
    match_id, mover, waiter, version = two_humans(http)
    base = f"{lone_stack.url}/v1/matches/{match_id}"
    log_start = len(lone_stack.log_text())
    headers = {"Authorization": f"Bearer {waiter}"}
    opened = threading.Event()

    def get(path: str) -> requests.Response:
        return requests.get(base + path, headers=headers, timeout=CLIENT_TIMEOUT_S)

    def stream() -> list[str]:
        lines = []
        with requests.get(
            f"{base}/events/stream?after={version}&max_s=120",
            headers=headers,
            stream=True,
            timeout=(10, CLIENT_TIMEOUT_S),
        ) as response:
            assert response.status_code == 200, response.text
            try:
                for line in response.iter_lines(decode_unicode=True):
                    lines.append(line)
                    opened.set()
            except requests.RequestException as error:
                lines.append(f"<cut: {type(error).__name__}>")
        return lines

    waits = [
        Background(lambda: get(f"/events?after={version}&wait=30")),
        Background(lambda: get("/legal-actions?wait=30")),
    ]
    streaming = Background(stream)
    for thread in (*waits, streaming):
        thread.start()
    assert opened.wait(CLIENT_TIMEOUT_S), "the stream did not open"
    time.sleep(1)  # the long-polls are blocked in Redis by now (not a timing assertion)
    private_redis.kill()
    try:
        for waiting in waits:
            response = waiting.outcome()
            assert response.status_code == 503, response.text
            assert response.json()["code"] == "store_unavailable"
            assert response.headers.get("Retry-After")
        lines = streaming.outcome()
        assert f"id: {version + 1}" not in lines
        log = lone_stack.log_text()[log_start:]
        assert "Traceback" not in log, log[-3000:]
        assert "store unavailable during the event stream" in log, log[-3000:]
    finally:
        private_redis.start()
