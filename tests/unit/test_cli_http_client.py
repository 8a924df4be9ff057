"""The ``arena play`` HTTP client: a 429 (per-client rate limit) is waited out, not fatal."""

from __future__ import annotations

import pytest
import requests

from cli.http_client import DEFAULT_TIMEOUT_S, ApiError, ArenaClient


class Answers:
    """A ``requests.Session`` stand-in answering from a list of (status, headers, body)."""

    def __init__(self, answers):
        self.answers, self.calls = list(answers), 0

    def request(self, method, url, headers=None, timeout=None, **kwargs):
        self.calls += 1
        status, head, body = self.answers.pop(0)
        response = requests.Response()
        response.status_code, response._content = status, body.encode()
        response.headers.update(head)
        return response


LIMITED = (429, {"Retry-After": "2"}, '{"code": "rate_limited", "detail": "slow down"}')


def test_a_429_is_retried_after_its_retry_after():
    slept = []
    session = Answers([LIMITED, LIMITED, (200, {}, '{"games": []}')])
    client = ArenaClient("http://x", session=session, sleep=slept.append)
    assert client.games() == []
    assert session.calls == 3 and slept == [2.0, 2.0]


def test_retry_after_is_capped_and_read_as_seconds():
    slept = []
    session = Answers(
        [
            (429, {"Retry-After": "3600"}, "{}"),
            (429, {"Retry-After": "soon"}, "{}"),
            (200, {}, "[]"),
        ]
    )
    ArenaClient("http://x", session=session, sleep=slept.append, max_retry_after_s=5).games()
    assert slept == [5, 1.0]


def test_a_429_that_does_not_end_is_raised_with_its_code():
    session = Answers([LIMITED] * 3)
    client = ArenaClient("http://x", session=session, rate_retries=3, sleep=lambda s: None)
    try:
        client.games()
    except ApiError as exc:
        assert exc.status == 429 and exc.code == "rate_limited"
    else:
        raise AssertionError("the 429 was swallowed")
    assert session.calls == 3


def test_the_request_timeout_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("ARENA_CLI_TIMEOUT_S", raising=False)
    assert ArenaClient("http://x").timeout_s == DEFAULT_TIMEOUT_S == 30.0
    monkeypatch.setenv("ARENA_CLI_TIMEOUT_S", "90")
    assert ArenaClient("http://x").timeout_s == 90.0
    assert ArenaClient("http://x", timeout_s=4).timeout_s == 4
    for bad in ("soon", "0", "-3", "inf", "nan"):
        monkeypatch.setenv("ARENA_CLI_TIMEOUT_S", bad)
        with pytest.raises(ValueError, match="ARENA_CLI_TIMEOUT_S"):
            ArenaClient("http://x")
