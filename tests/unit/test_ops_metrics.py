"""Issue 18 item 9: /metrics through prometheus_client (today's counters kept; HTTP request
durations by URL rule and status; RQ queue depth and job durations; build info), summed
over gunicorn's worker processes; /healthz split into liveness and readiness."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from service.bootstrap import build_service
from service.config import Config
from tests.support.polling import wait_for

ROOT = Path(__file__).resolve().parents[2]
HUMANS3 = [{"kind": "human"}] * 3


def _samples(text: str) -> dict[tuple[str, tuple], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


@pytest.fixture()
def service():
    return build_service(Config(key_prefix=f"opsmetrics-{uuid.uuid4().hex[:8]}"))


def test_metrics_keep_the_counters_and_add_http_rq_and_build_families(service):
    client = create_app(service).test_client()
    created = client.post("/v1/matches", json={"game": "ai-100-human", "seats": HUMANS3})
    match_id = created.get_json()["match_id"]
    for _ in range(2):  # the test client closes no body: the middleware observes on close
        client.get(f"/v1/matches/{match_id}").close()
    client.get("/v1/matches/nope").close()
    service.observe_job("bot_turn", 0.03)
    service.observe_job("bot_turn", 7.0)
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    text = answer.get_data(as_text=True)
    samples = _samples(text)
    assert samples[("arena_matches_created_total", ())] == 1
    assert samples[("arena_running_matches", ())] == 1
    for name in (
        "arena_actions_accepted_total",
        "arena_bot_turns_total",
        "arena_timeouts_total",
        "arena_matches_archived_total",
        "arena_reconcile_requeued_total",
    ):
        assert (name, ()) in samples
    assert "# TYPE arena_actions_rejected_total counter" in text
    route = (("method", "GET"), ("route", "/v1/matches/<match_id>"), ("status", "200"))
    assert samples[("arena_http_request_duration_seconds_count", route)] >= 2
    assert (
        "arena_http_request_duration_seconds_bucket",
        tuple(sorted((*route, ("le", "+Inf")))),
    ) in samples
    assert not any(match_id in str(labels) for _, labels in samples)  # by rule, not path
    kind = (("kind", "bot_turn"),)
    assert samples[("arena_rq_job_duration_seconds_count", kind)] == 2
    assert (
        samples[("arena_rq_job_duration_seconds_bucket", (("kind", "bot_turn"), ("le", "0.05")))]
        == 1
    )
    assert samples[("arena_rq_job_duration_seconds_sum", kind)] == pytest.approx(7.03)
    # both queues: a probe saw analysis slices hold both workers while this said 0
    assert {labels for name, labels in samples if name == "arena_rq_jobs"} == {
        (("queue", q), ("state", s))
        for q in ("turns", "analysis")
        for s in ("queued", "scheduled", "started")
    }
    build = [labels for name, labels in samples if name == "arena_build_info"]
    assert len(build) == 1 and dict(build[0])["version"]


def test_the_service_text_is_prometheus_clients(service):
    text = service.metrics()
    assert "# TYPE arena_matches_created_total counter" in text
    assert _samples(text)[("arena_matches_created_total", ())] == 0


def test_liveness_asks_no_dependency_and_readiness_and_healthz_ask_redis(service, monkeypatch):
    client = create_app(service).test_client()
    assert client.get("/livez").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json()["status"] == "ok"
    assert client.get("/healthz").status_code == 200
    monkeypatch.setattr(service.ctx.stores.events, "probe", lambda: "unreachable")
    assert client.get("/livez").status_code == 200
    for path in ("/readyz", "/healthz"):
        answer = client.get(path)
        assert answer.status_code == 503 and answer.get_json()["store_state"] == "unreachable"
        assert answer.headers["Cache-Control"] == "no-store"


def test_gunicorn_sums_the_http_metrics_of_every_worker_process(redis_url, tmp_path):
    """Two gunicorn workers (the shipped config): /metrics answers with both processes'
    requests whichever worker serves the scrape."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env.update(
        REDIS_URL=redis_url,
        ARENA_KEY_PREFIX=f"opsmulti-{uuid.uuid4().hex[:8]}",
        PYTHONPATH=str(ROOT),
        ARENA_RATE_LIMITS_ENABLED="0",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
    )
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:api.gunicorn_config",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "api.app:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:

        def up():
            try:
                return requests.get(f"{url}/v1/games", timeout=60).status_code == 200
            except requests.RequestException:  # not up yet (refused), or a cold start
                return False

        assert wait_for(up, 60, step=0.2), "gunicorn did not answer"
        sent = 1
        # new connections until both workers have served one (each writes its own file on
        # its first observation; only /v1/games has been asked for so far)
        while len(list(tmp_path.glob("histogram_*.db"))) < 2 and sent < 400:
            requests.get(f"{url}/v1/games", headers={"Connection": "close"}, timeout=60)
            sent += 1
        assert len(list(tmp_path.glob("histogram_*.db"))) == 2, "both workers observed"
        route = (("method", "GET"), ("route", "/v1/games"), ("status", "200"))

        def counted():
            text = requests.get(f"{url}/metrics", timeout=60).text
            return _samples(text).get(("arena_http_request_duration_seconds_count", route))

        assert wait_for(lambda: counted() == sent, 30), (counted(), sent)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_gunicorn_removes_the_metrics_directory_it_made_and_keeps_the_operators(
    monkeypatch, tmp_path
):
    """``on_starting`` makes a temporary ``PROMETHEUS_MULTIPROC_DIR`` when none is set and
    ``on_exit`` removes it (each start left one in /tmp); a directory the operator named
    stays."""
    import api.gunicorn_config as config

    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    config.on_starting(None)
    made = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    assert os.path.isdir(made) and os.path.basename(made).startswith("arena-prometheus-")
    config.on_exit(None)
    assert not os.path.exists(made)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    config.on_starting(None)
    config.on_exit(None)
    assert tmp_path.is_dir()
