"""Errors the HTTP server answers before Flask (414 URI too long, 431 header fields too large,
400 malformed request) and an oversized chunked body (413) are problem+json, on a real
gunicorn with the project's worker class (``api.wire_errors.ProblemThreadWorker``) and on the
embedded ``arena serve`` server (werkzeug, ``api.wire_errors.ProblemRequestHandler``),
driven over raw sockets."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.serve import WORKER_CLASS, EmbeddedServer

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port no one listens on right now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def exchange(port: int, request: bytes, timeout_s: float = 30.0) -> tuple[int, dict, bytes]:
    """Send raw ``request`` bytes, read the answer until the server closes (or one full
    answer by its Content-Length): ``(status, headers with lower-case names, body)``."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        try:
            sock.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before reading everything
        data = b""
        while b"\r\n\r\n" not in data or len(data) < _answer_length(data):
            try:
                part = sock.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                break
            data += part
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _answer_length(data: bytes) -> int:
    head, sep, _ = data.partition(b"\r\n\r\n")
    if not sep:
        return 1 << 62
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return 1 << 62


def chunked_post(path: str, total: int, chunk: int = 512 * 1024) -> bytes:
    """A raw chunked POST of ``total`` bytes of a JSON array (never a valid document:
    unterminated), in chunks of ``chunk`` bytes."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    piece = b"[" + b"1," * ((chunk - 1) // 2)
    parts, sent = [head], 0
    while sent < total:
        parts.append(b"%x\r\n%s\r\n" % (len(piece), piece))
        sent += len(piece)
    parts.append(b"0\r\n\r\n")
    return b"".join(parts)


@pytest.fixture(scope="module")
def gunicorn_port() -> Iterator[int]:
    """A real gunicorn serving ``api.app:create_app()`` (embedded store, no REDIS_URL) with
    the worker class of every deployment, on a free port; stopped afterwards."""
    from gunicorn.config import KNOWN_SETTINGS

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    # newer gunicorns open a control socket at one fixed path per user unless told not to
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
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
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
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start: {process.stderr.read()!r}")
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.fixture(scope="module")
def embedded_port() -> Iterator[int]:
    """``arena serve``'s embedded server (werkzeug + fakeredis + worker threads)."""
    with EmbeddedServer("127.0.0.1", 0, access_log=False) as server:
        yield server.http.server_port


def _problem(status: int, headers: dict, body: bytes, code: str) -> dict:
    assert headers.get("content-type") == "application/problem+json", (status, headers, body)
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code, problem
    assert problem["type"].endswith("/" + code) and problem["title"] and problem["detail"]
    assert "instance" in problem
    assert "<html" not in body.decode().lower()
    return problem


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
def test_an_oversized_url_is_414_problem_json(server, request):
    port = request.getfixturevalue(f"{server}_port")
    # over gunicorn's 4094-byte request line and over http.server's 65536 bytes
    status, headers, body = exchange(
        port, b"GET /v1/matches?x=" + b"a" * 70000 + b" HTTP/1.1\r\nHost: t\r\n\r\n"
    )
    assert status == 414
    _problem(status, headers, body, "uri_too_long")


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
def test_oversized_headers_are_431_problem_json(server, request):
    port = request.getfixturevalue(f"{server}_port")
    # one field over gunicorn's 8190-byte field limit and http.server's 65536-byte line
    status, headers, body = exchange(
        port, b"GET /v1/games HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n"
    )
    assert status == 431
    _problem(status, headers, body, "header_fields_too_large")
    # too many fields (gunicorn: 100, http.server: 100)
    many = b"".join(b"X-F%d: v\r\n" % i for i in range(150))
    status, headers, body = exchange(
        port, b"GET /v1/games HTTP/1.1\r\nHost: t\r\n" + many + b"\r\n"
    )
    assert status == 431
    _problem(status, headers, body, "header_fields_too_large")


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
def test_a_malformed_request_line_is_400_problem_json(server, request):
    port = request.getfixturevalue(f"{server}_port")
    # four words in the request line (a version is still read, so HTTP/1.1 answers)
    status, headers, body = exchange(port, b"GET / /x HTTP/1.1\r\nHost: t\r\n\r\n")
    assert status == 400
    _problem(status, headers, body, "bad_request")


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
def test_a_17_mib_chunked_body_is_413_problem_json(server, request):
    port = request.getfixturevalue(f"{server}_port")
    status, headers, body = exchange(port, chunked_post("/v1/matches", 17 * 1024 * 1024))
    assert status == 413
    problem = _problem(status, headers, body, "payload_too_large")
    assert problem["instance"] == "/v1/matches"
    # a small chunked body is read as usual
    small = json.dumps({"game": "ai-100-human", "seats": [{"kind": "human"}]}).encode()
    raw = (
        b"POST /v1/matches HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + b"%x\r\n%s\r\n0\r\n\r\n"
        % (len(small), small)
    )
    status, headers, body = exchange(port, raw)
    assert status == 201, body
    assert json.loads(body)["seats"][0]["token"]
    assert headers["cache-control"] == "private, no-store"


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
def test_the_server_still_answers_normally(server, request):
    port = request.getfixturevalue(f"{server}_port")
    status, headers, body = exchange(
        port, b"GET /v1/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    )
    assert status == 200 and json.loads(body)["games"]
    etag = headers["etag"]
    status, again, body = exchange(
        port,
        b"GET /v1/games HTTP/1.1\r\nHost: t\r\n"
        b"If-None-Match: " + etag.encode() + b"\r\nConnection: close\r\n\r\n",
    )
    assert status == 304 and body == b"" and again["etag"] == etag


def _chunked_head(path: str = "/v1/matches") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()


def exchange_half_closed(
    port: int, request: bytes, timeout_s: float = 30.0
) -> tuple[int, dict, bytes]:
    """Like :func:`exchange`, but the client closes its sending side after ``request``
    (the body ends there: a truncated chunk is never completed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while True:
            try:
                part = sock.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                break
            data += part
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {
        name.strip().lower(): value.strip()
        for name, _, value in (line.partition(":") for line in lines[1:])
    }
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
@pytest.mark.parametrize(
    "framing",
    [
        b"zz\r\n{}\r\n0\r\n\r\n",  # a chunk size that is not hexadecimal
        b"2\r\n{}XX\r\n0\r\n\r\n",  # a chunk longer than its size line (no CRLF after it)
    ],
)
def test_a_malformed_chunked_body_is_400_problem_json(server, framing, request):
    port = request.getfixturevalue(f"{server}_port")
    status, headers, body = exchange(port, _chunked_head() + framing)
    assert status == 400, body
    problem = _problem(status, headers, body, "bad_request")
    assert problem["instance"] == "/v1/matches" and "chunked" in problem["detail"]


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
def test_a_truncated_chunk_is_400_problem_json(server, request):
    port = request.getfixturevalue(f"{server}_port")
    # 16 bytes announced, 3 sent, then the client stops sending
    status, headers, body = exchange_half_closed(port, _chunked_head() + b"10\r\nabc")
    assert status == 400, body
    _problem(status, headers, body, "bad_request")
    # the server answers the next connection as usual
    assert (
        exchange(port, b"GET /v1/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")[0] == 200
    )


@pytest.mark.parametrize("server", ["gunicorn", "embedded"])
@pytest.mark.parametrize("size", [1_000, 200_000])
def test_an_early_answer_to_a_large_body_never_promises_a_dead_connection(server, size, request):
    """A request refused before its body is read (404 unknown path, 401 no token) with 200 KB
    of body: gunicorn discards at most 64 KiB of an unread body to keep a connection, so such
    an answer says ``Connection: close``; an answer that keeps the connection open must serve
    the next request on it (the probe's client got ``RemoteDisconnected`` there)."""
    port = request.getfixturevalue(f"{server}_port")
    body = json.dumps({"padding": "a" * size}).encode()
    closed = []
    for path in ("/v1/no-such-thing", "/v1/matches/m1/actions"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            first = conn.getresponse()
            first.read()
            assert first.status in (401, 404)
            if first.getheader("Connection", "").lower() == "close" or first.will_close:
                closed.append(path)
                continue
            conn.request("GET", "/v1/games")
            again = conn.getresponse()
            assert again.status == 200 and json.loads(again.read())["games"]
        finally:
            conn.close()
    if server == "gunicorn":
        # a small body is discarded and the connection kept; a large one closes it
        assert closed == (
            [] if size < 64 * 1024 else ["/v1/no-such-thing", "/v1/matches/m1/actions"]
        )
