"""``arena serve``: embedded mode answers HTTP from one process; with REDIS_URL the API
runs under gunicorn (configured from Python)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

import cli.serve
from cli.main import main
from cli.serve import gunicorn_application, redacted_url

ROOT = Path(__file__).resolve().parents[2]


def test_redacted_url_hides_only_the_password():
    assert redacted_url("redis://:s3cret@db:6379/0") == "redis://:***@db:6379/0"
    assert redacted_url("redis://user:pw@db/1") == "redis://user:***@db/1"
    assert redacted_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def test_gunicorn_application_serves_the_api_factory_with_gthread_workers():
    app = gunicorn_application("127.0.0.1:8123", workers=3, threads=5)
    assert app.cfg.bind == ["127.0.0.1:8123"]
    assert (app.cfg.workers, app.cfg.threads) == (3, 5)
    # gunicorn's gthread worker, answering its own request errors as problem+json
    from gunicorn.workers.gthread import ThreadWorker

    from api.wire_errors import ProblemThreadWorker

    assert app.cfg.worker_class_str == "api.wire_errors.ProblemThreadWorker"
    assert app.cfg.worker_class is ProblemThreadWorker
    assert issubclass(ProblemThreadWorker, ThreadWorker)


def test_serve_with_redis_url_runs_gunicorn_and_names_the_worker(monkeypatch):
    started = []

    class FakeGunicorn:
        def run(self):
            started.append(True)

    monkeypatch.setattr(
        cli.serve,
        "gunicorn_application",
        lambda bind, workers, threads: started.append((bind, workers, threads)) or FakeGunicorn(),
    )
    result = CliRunner().invoke(
        main,
        ["serve", "--port", "8124", "--workers", "2"],
        env={"REDIS_URL": "redis://:pw@127.0.0.1:6379/0", "COLUMNS": "300"},
    )
    assert result.exit_code == 0, result.output
    assert started == [("127.0.0.1:8124", 2, 48), True]
    assert "arena worker" in result.output and "pw@" not in result.output


def test_serve_without_redis_url_is_self_contained():
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env.update(COLUMNS="300", PYTHONPATH=str(ROOT), ARENA_KEY_PREFIX="serve-test")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cli.main import main; main()", "serve", "--port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url, deadline = None, time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                pytest.fail(f"arena serve exited with {proc.returncode}")
            found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
            url = found.group(0) if found else None
        assert url, "arena serve printed no URL"
        assert requests.get(f"{url}/healthz", timeout=30).json()["status"] == "ok"
        games = requests.get(f"{url}/v1/games", timeout=30).json()["games"]
        assert "ai-100-human" in [g["id"] for g in games]
        created = requests.post(
            f"{url}/v1/matches",
            timeout=30,
            json={"game": "ai-100-human", "seats": [{"kind": "bot", "bot": "random"}] * 3},
        )
        assert created.status_code == 201
        # The embedded RQ worker thread plays the bots: the match moves on by itself.
        match_id, moved = created.json()["match_id"], False
        for _ in range(100):
            if (
                requests.get(f"{url}/v1/matches/{match_id}", timeout=30).json()["version"]
                > created.json()["version"]
            ):
                moved = True
                break
            time.sleep(0.1)
        assert moved
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
