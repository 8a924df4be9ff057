"""The Python client (``clients/python``: ``arena_sdk`` over the client
openapi-python-client generates from ``openapi.yaml`` at test time, never committed)
installs with pip, retries 429/503 only where repeating cannot act twice, and its example
plays a match of every game against a bot on the embedded server (issue 20 item 3)."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from tests.e2e.sdk_server import served

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "python"


@pytest.fixture(scope="module")
def site(tmp_path_factory, python_client_code) -> Path:
    """``clients/python`` with the client generated from the current ``openapi.yaml``
    (``python_client_code``: its own ``generate.py``, once per session) installed with
    pip (``--target``; its dependencies are the test venv's) into a temporary folder,
    which is on ``sys.path`` while the module's tests run."""
    work = tmp_path_factory.mktemp("sdk-python")
    source = work / "source"
    shutil.copytree(
        PACKAGE,
        source,
        ignore=shutil.ignore_patterns("generated", "__pycache__", "build", "*.egg-info"),
    )
    shutil.copytree(python_client_code, source / "arena_sdk" / "generated")
    target = work / "site"
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    sys.path.insert(0, str(target))
    try:
        yield target
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m == "arena_sdk" or m.startswith("arena_sdk.")]:
            del sys.modules[name]


@pytest.fixture
def sdk(site):
    return importlib.import_module("arena_sdk")


def test_the_installed_package_holds_the_generated_client(site, sdk):
    assert Path(sdk.__file__).is_relative_to(site)
    assert (site / "arena_sdk" / "generated" / "api" / "matches" / "act.py").exists()


def _scripted(
    statuses: list[int], retry_after: str, seen: list[httpx.Request]
) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        status = statuses[len(seen) - 1] if len(seen) <= len(statuses) else 200
        return httpx.Response(
            status, headers={} if status == 200 else {"Retry-After": retry_after}, json={}
        )

    return httpx.MockTransport(answer)


def test_a_get_answered_429_and_503_is_repeated_after_retry_after(sdk):
    seen: list[httpx.Request] = []
    waits: list[float] = []
    transport = sdk.RetryTransport(
        sdk.RetryPolicy(attempts=5, max_delay_s=5),
        _scripted([429, 503], "2", seen),
        sleep=waits.append,
    )
    with httpx.Client(transport=transport, base_url="http://arena") as http:
        assert http.get("/v1/games").status_code == 200
    assert len(seen) == 3 and waits == [2.0, 2.0]


def test_a_post_with_an_idempotency_key_is_repeated_with_the_same_key_and_body(sdk):
    seen: list[httpx.Request] = []
    transport = sdk.RetryTransport(
        sdk.RetryPolicy(), _scripted([503], "0", seen), sleep=lambda s: None
    )
    with httpx.Client(transport=transport, base_url="http://arena") as http:
        answer = http.post(
            "/v1/matches/m/actions", json={"type": "pass"}, headers={"Idempotency-Key": "k" * 16}
        )
    assert answer.status_code == 200 and len(seen) == 2
    assert {(r.headers["Idempotency-Key"], r.read()) for r in seen} == {
        ("k" * 16, b'{"type":"pass"}')
    }


def test_a_post_without_an_idempotency_key_is_never_repeated(sdk):
    seen: list[httpx.Request] = []
    transport = sdk.RetryTransport(
        sdk.RetryPolicy(), _scripted([429], "0", seen), sleep=lambda s: None
    )
    with httpx.Client(transport=transport, base_url="http://arena") as http:
        assert http.post("/v1/matches", json={}).status_code == 429
    assert len(seen) == 1


def test_retries_are_bounded_and_waits_capped(sdk):
    seen: list[httpx.Request] = []
    waits: list[float] = []
    transport = sdk.RetryTransport(
        sdk.RetryPolicy(attempts=3, max_delay_s=1.5),
        _scripted([429] * 10, "120", seen),
        sleep=waits.append,
    )
    with httpx.Client(transport=transport, base_url="http://arena") as http:
        assert http.get("/v1/games").status_code == 429
    assert len(seen) == 3 and waits == [1.5, 1.5]


def test_retry_after_is_read_as_seconds_or_an_http_date(sdk):
    now = datetime(2026, 12, 1, 10, 0, 0, tzinfo=UTC)
    assert sdk.retry_after_seconds("7") == 7
    assert sdk.retry_after_seconds(None) is None and sdk.retry_after_seconds("soon") is None
    assert sdk.retry_after_seconds("Tue, 01 Dec 2026 10:00:03 GMT", now) == 3
    assert sdk.retry_after_seconds("Tue, 01 Dec 2026 09:00:00 GMT", now) == 0


def test_the_client_sends_keys_and_tokens_and_raises_problems(sdk):
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            404,
            headers={"Content-Type": "application/problem+json"},
            json={
                "type": "about:blank",
                "title": "Not Found",
                "status": 404,
                "detail": "no such match",
                "code": "match_not_found",
                "instance": None,
            },
        )

    arena = sdk.Arena("http://arena", transport=httpx.MockTransport(answer)).with_token("t0ken")
    with pytest.raises(sdk.ApiError) as raised:
        arena.rematch("m1")
    assert raised.value.status == 404 and raised.value.code == "match_not_found"
    assert seen[0].headers["Authorization"] == "Bearer t0ken"
    assert len(seen[0].headers["Idempotency-Key"]) == 36


def test_a_repeated_create_with_the_same_key_is_the_same_match(sdk, app, embedded_service):
    with served(app, embedded_service) as base_url:
        arena = sdk.Arena(base_url)
        key = sdk.new_idempotency_key()
        first = arena.create_match(
            "dead-apocalypse", [{"kind": "human"}, {"kind": "human"}], idempotency_key=key
        )
        again = arena.create_match(
            "dead-apocalypse", [{"kind": "human"}, {"kind": "human"}], idempotency_key=key
        )
        arena.close()
    assert again.match_id == first.match_id
    assert [s.token for s in again.seats] == [s.token for s in first.seats]


def test_the_example_plays_a_match_of_every_game_against_a_bot(site, app, embedded_service):
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
    }
    with served(app, embedded_service) as base_url:
        ran = subprocess.run(
            [sys.executable, str(PACKAGE / "examples" / "play_every_game.py"), base_url],
            capture_output=True,
            text=True,
            timeout=900,
            env=env,
            cwd=site,
        )
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-4000:]
    lines = [json.loads(line) for line in ran.stdout.splitlines() if line.startswith("{")]
    from domain.games import registry

    assert sorted(line["game"] for line in lines) == sorted(registry())
    for line in lines:
        assert line["status"] in ("finished", "abandoned"), line
        assert line["result"] is not None and line["streamed"] == line["version"], line


def test_the_views_stream_and_the_long_poll_carry_the_seats_state(sdk, app, embedded_service):
    with served(app, embedded_service) as base_url:
        arena = sdk.Arena(base_url)
        created = arena.create_match("dead-apocalypse", [{"kind": "human"}, {"kind": "human"}])
        seat0 = arena.with_token(created.seats[0].token)
        streamed = list(sdk.stream_events(seat0, created.match_id, views=True, max_s=1))
        page = seat0.events(created.match_id, after=0, wait_s=1)
        legal = seat0.legal_actions(created.match_id, wait_s=1)
        arena.close()
        seat0.close()
    assert [e["version"] for e in streamed] == [e.version for e in page.events]
    states = [e["seat_state"] for e in streamed if "seat_state" in e]
    assert states and states[-1]["status"] == "running"
    assert states[-1]["legal_actions"]["decision_id"] == legal.decision_id


def test_the_documented_ten_lines_play_a_match(site, app, embedded_service, tmp_path):
    docs = (ROOT / "docs" / "clients.md").read_text(encoding="utf-8")
    snippet = docs.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(snippet.strip().splitlines()) <= 10
    env = {**os.environ, "PYTHONPATH": str(site)}
    with served(app, embedded_service) as base_url:
        script = tmp_path / "snippet.py"
        script.write_text(snippet.replace("http://127.0.0.1:8000", base_url), encoding="utf-8")
        ran = subprocess.run(
            [sys.executable, str(script)],
            capture_output=True,
            text=True,
            timeout=900,
            env=env,
            cwd=tmp_path,
        )
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert ran.stdout.split()[0] in ("finished", "abandoned"), ran.stdout
