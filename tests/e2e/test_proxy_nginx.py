"""The reverse proxy compose.yaml puts in front of gunicorn: Debian's nginx running the
shipped ``deploy/nginx/arena.conf.template`` (:mod:`tests.support.nginx`) in front of a real
gunicorn with the project's worker class, driven over raw sockets.

gunicorn's gthread worker reads a request in a worker thread, so slow senders can hold every
thread (``benchmarks/bench_slow_clients.py`` measures it: with 300 of them no normal request
is answered within 1 s); nginx reads requests whole before passing them on. Here: with 300
slow connections open, a normal request through the proxy is answered while they are all
still open; the SSE stream is not buffered; nginx's own error answers are problem+json.

nginx comes from Debian (installed with apt-get when missing and possible, as ``.ci/run``
does); without it the tests skip, except in CI where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from cli.serve import WORKER_CLASS
from tests.e2e.test_wire_errors import exchange, free_port
from tests.support.nginx import LocalNginx, nginx_binary

pytestmark = pytest.mark.e2e
SLOW_CONNECTIONS = 300


def _nginx_or_skip() -> None:
    if nginx_binary() is None and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (
            ["apt-get", "install", "-y", "-qq", "nginx"],
            ["apt-get", "update", "-qq"],
            ["apt-get", "install", "-y", "-qq", "nginx"],
        ):
            subprocess.run(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env
            )
            if nginx_binary():
                break
    if nginx_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("nginx must be installed in CI (.ci/run installs it)")
        pytest.skip("nginx is not installed and cannot be installed here")


@pytest.fixture(scope="module")
def proxied() -> Iterator[tuple[int, int]]:
    """``(nginx port, gunicorn port)``: gunicorn with the shipped settings (``-c
    python:api.gunicorn_config``) but 1 worker x 4 threads (far fewer threads than slow
    connections) behind the shipped nginx configuration."""
    _nginx_or_skip()
    from gunicorn.config import KNOWN_SETTINGS

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env["ARENA_TRUSTED_PROXIES"] = "1"
    quiet = (
        ["--no-control-socket"]
        if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS)
        else []
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:api.gunicorn_config",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--threads",
            "4",
            "--worker-class",
            WORKER_CLASS,
            *quiet,
            "api.app:create_app()",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if (
                    exchange(
                        port, b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 5
                    )[0]
                    == 200
                ):
                    break
            except OSError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        with LocalNginx(upstream=f"127.0.0.1:{port}") as nginx:
            yield nginx.port, port
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _problem(status: int, headers: dict, body: bytes, code: str) -> None:
    assert headers.get("content-type", "").startswith("application/problem+json"), (status, body)
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code
    assert problem["type"].endswith("/" + code) and problem["title"] and problem["detail"]


def test_slow_connections_do_not_stop_a_normal_request(proxied):
    nginx_port, _ = proxied
    slow = []
    try:
        for index in range(SLOW_CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", nginx_port), timeout=30)
            if index % 2:  # a request line and one header, never the blank line
                sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: t\r\n")
            else:  # complete headers, one byte of a 64 KiB body
                sock.sendall(
                    b"POST /v1/matches HTTP/1.1\r\nHost: t\r\nContent-Type: "
                    b"application/json\r\nContent-Length: 65536\r\n\r\n{"
                )
            slow.append(sock)
        status, headers, body = exchange(
            nginx_port, b"GET /v1/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 60
        )
        assert status == 200 and json.loads(body)["games"]
        # a request with a body goes through whole too
        raw = json.dumps({"game": "ai-100-human", "seats": [{"kind": "human"}]}).encode()
        status, headers, body = exchange(
            nginx_port,
            b"POST /v1/matches HTTP/1.1\r\nHost: t\r\n"
            b"Content-Type: application/json\r\nConnection: close\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(raw), raw),
            60,
        )
        assert status == 201 and headers["location"].startswith("/v1/matches/")
        # answered while every slow connection is still waiting (not after the proxy timed
        # them out, as it would have to if they held gunicorn's threads)
        assert sum(_still_waiting(sock) for sock in slow) == SLOW_CONNECTIONS
    finally:
        for sock in slow:
            sock.close()


def _still_waiting(sock: socket.socket) -> bool:
    """True when the server has neither answered nor closed ``sock``."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)  # data (an answer) or b"" (closed)
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def test_the_event_stream_is_not_buffered(proxied):
    nginx_port, _ = proxied
    raw = json.dumps({"game": "ai-100-human", "seats": [{"kind": "human"}]}).encode()
    status, _, body = exchange(
        nginx_port,
        b"POST /v1/matches HTTP/1.1\r\nHost: t\r\n"
        b"Content-Type: application/json\r\nConnection: close\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(raw), raw),
        60,
    )
    match_id = json.loads(body)["match_id"]
    with socket.create_connection(("127.0.0.1", nginx_port), timeout=60) as sock:
        sock.sendall(
            f"GET /v1/matches/{match_id}/events/stream HTTP/1.1\r\nHost: t\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        data = b""
        while b"\nid:" not in data and b"\ndata:" not in data:  # the set-up events
            part = sock.recv(65536)  # buffered by the proxy: would wait for the 60 s timeout
            assert part, data
            data += part
    assert data.startswith(b"HTTP/1.1 200") and b"text/event-stream" in data


def test_the_proxys_own_errors_are_problem_json(proxied):
    nginx_port, _ = proxied
    # a body over the API's 16 MiB limit, announced: refused before it is sent
    status, headers, body = exchange(
        nginx_port,
        b"POST /v1/matches HTTP/1.1\r\nHost: t\r\n"
        b"Content-Type: application/json\r\n"
        b"Content-Length: 17000000\r\n\r\n",
    )
    assert status == 413
    _problem(status, headers, body, "payload_too_large")
    status, headers, body = exchange(
        nginx_port, b"GET /v1/games?x=" + b"a" * 20000 + b" HTTP/1.1\r\nHost: t\r\n\r\n"
    )
    assert status == 414
    _problem(status, headers, body, "uri_too_long")
    status, headers, body = exchange(
        nginx_port, b"GET /v1/games HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n"
    )
    assert status == 431
    _problem(status, headers, body, "header_fields_too_large")
    status, headers, body = exchange(
        nginx_port,
        b"POST /v1/matches HTTP/1.1\r\nHost: t\r\n"
        b"Content-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    )
    assert status == 400
    _problem(status, headers, body, "bad_request")
    # a method nginx refuses itself, an HTTP version it does not speak (newcomer probe:
    # both were nginx's HTML pages)
    status, headers, body = exchange(nginx_port, b"TRACE /v1/matches HTTP/1.1\r\nHost: t\r\n\r\n")
    assert status == 405 and "GET" in headers.get("allow", "")
    _problem(status, headers, body, "method_not_allowed")
    status, headers, body = exchange(nginx_port, b"GET /v1/games HTTP/2.0\r\nHost: t\r\n\r\n")
    assert status == 505
    _problem(status, headers, body, "http_version_not_supported")
    # the API's own problems pass through untouched
    status, headers, body = exchange(
        nginx_port, b"GET /v1/matches/nope HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    )
    assert status == 404
    _problem(status, headers, body, "match_not_found")
