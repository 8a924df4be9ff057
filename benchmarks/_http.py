"""A small keep-alive HTTP/1.1 JSON client for the load generators of the benchmarks.

Deliberately tiny (like ``wrk``'s): the load generator shares the machine with the server,
so its own CPU per request must stay small; ``http.client`` parses every response header
through ``email.parser`` and costs several times more.
"""

from __future__ import annotations

import json
import socket
from typing import Any


class HttpError(Exception):
    """A non-2xx answer: ``status`` and the problem+json ``code``."""

    def __init__(self, status: int, code: str):
        super().__init__(f"HTTP {status} {code}")
        self.status = status
        self.code = code


class Connection:
    """One keep-alive HTTP/1.1 connection to the API over a raw socket, JSON in and out.

    A deliberately small client (like ``wrk``'s): the load generator shares the machine
    with the server, so its own CPU per request must stay small; ``http.client`` parses
    every response header through ``email.parser`` and costs several times more.
    Handles ``Content-Length`` and ``chunked`` bodies and re-connects when the server
    closes the connection (``Connection: close`` or a dropped socket).
    """

    def __init__(self, host: str, port: int, timeout_s: float = 30.0):
        self.address = (host, port)
        self.host = f"{host}:{port}"
        self.timeout_s = timeout_s
        self.sock: socket.socket | None = None
        self.buffer = b""

    def close(self) -> None:
        """Close the socket (the next call re-connects)."""
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionResetError("server closed the connection")
        return chunk

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            self.buffer += self._recv()
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _read_exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self.buffer += self._recv()
        body, self.buffer = self.buffer[:size], self.buffer[size:]
        return body

    def _exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.sock is None:
            self.sock = socket.create_connection(self.address, timeout=self.timeout_s)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(request)
        lines = self._read_until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int(self._read_until(b"\r\n").split(b";")[0], 16)
                if size == 0:
                    self._read_until(b"\r\n")
                    break
                parts.append(self._read_exactly(size))
                self._read_exactly(2)
            body = b"".join(parts)
        else:
            body = self._read_exactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            self.close()
        self.last_headers = headers
        return status, body

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        """Send one request; the decoded JSON answer, or :class:`HttpError`."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", "Accept: application/json"]
        if token:
            lines.append(f"Authorization: Bearer {token}")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        payload = b"" if body is None else json.dumps(body).encode()
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
        for attempt in (1, 2):
            try:
                status, raw = self._exchange(request)
                break
            except (ConnectionResetError, BrokenPipeError, ConnectionAbortedError):
                self.close()  # a keep-alive connection the server closed meanwhile
                if attempt == 2:
                    raise
        if status >= 400:
            try:
                code = json.loads(raw).get("code", "")
            except ValueError:
                code = ""
            raise HttpError(status, code or str(status))
        return json.loads(raw) if raw else None
