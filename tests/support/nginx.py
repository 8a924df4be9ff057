"""Debian's ``nginx`` running the shipped proxy configuration on loopback ports.

:class:`LocalNginx` renders ``deploy/nginx/arena.conf.template`` — the file compose.yaml's
``proxy`` service mounts — the way the official image does (only the ``ARENA_*`` variables
are replaced, nginx's own ``$variables`` stay), wraps it in a minimal main configuration of
its own (pid file, logs and temporary files in a private directory) and runs ``nginx`` in
the foreground as a child process, stopped by its PID. Used by
``tests/e2e/test_proxy_nginx.py`` and ``benchmarks/bench_slow_clients.py``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx" / "arena.conf.template"
#: what the official image's entrypoint replaces (NGINX_ENVSUBST_FILTER=^ARENA_)
_VARIABLE = re.compile(r"\$\{(ARENA_[A-Z0-9_]*)\}")


def nginx_binary() -> str | None:
    """The ``nginx`` program (PATH, else Debian's ``/usr/sbin/nginx``), or ``None``."""
    found = shutil.which("nginx")
    if found is None and os.path.exists("/usr/sbin/nginx"):
        found = "/usr/sbin/nginx"
    return found


def render(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``${ARENA_...}`` replaced from ``values`` (KeyError when one
    is missing), as ``envsubst`` with the image's filter does."""
    return _VARIABLE.sub(lambda found: values[found.group(1)], template)


def free_port() -> int:
    """A TCP port no one listens on right now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalNginx:
    """The shipped server block in front of ``upstream`` (``host:port``) on a free port of
    127.0.0.1 (:attr:`port`). :meth:`start` returns once nginx accepts connections;
    :meth:`stop` ends it (SIGQUIT, then SIGKILL) and removes its directory."""

    def __init__(self, upstream: str, worker_connections: int = 4096):
        binary = nginx_binary()
        if binary is None:
            raise FileNotFoundError("nginx is not installed (apt-get install nginx)")
        self.binary = binary
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="arena-nginx-"))
        os.chmod(self.dir, 0o755)
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.dir / name).mkdir()
            os.chmod(self.dir / name, 0o777)  # nginx's workers may run as another user
        (self.dir / "arena.conf").write_text(
            render(
                TEMPLATE.read_text(),
                {"ARENA_UPSTREAM": upstream, "ARENA_LISTEN_PORT": f"127.0.0.1:{self.port}"},
            )
        )
        d = self.dir
        (d / "nginx.conf").write_text(f"""
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections {worker_connections}; }}
http {{
    access_log off;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    include {d}/arena.conf;
}}
""")
        self.process: subprocess.Popen | None = None

    def check(self) -> None:
        """``nginx -t`` on the rendered configuration (raises with its output on error)."""
        done = subprocess.run(
            [
                self.binary,
                "-t",
                "-p",
                str(self.dir),
                "-c",
                str(self.dir / "nginx.conf"),
                "-e",
                str(self.dir / "error.log"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"nginx -t failed: {done.stderr}")

    def start(self, timeout_s: float = 60) -> LocalNginx:
        self.check()
        self.process = subprocess.Popen(
            [
                self.binary,
                "-p",
                str(self.dir),
                "-c",
                str(self.dir / "nginx.conf"),
                "-e",
                str(self.dir / "error.log"),
                "-g",
                "daemon off;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.process.stderr.read()!r}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not start listening")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGQUIT)
                self.process.wait(15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> LocalNginx:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
