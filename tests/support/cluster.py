"""A real Redis Cluster for tests: 3 masters + 3 replicas of Debian's ``redis-server`` on
random loopback ports in 20000-29999, created with ``redis-cli --cluster create``.

:class:`LocalCluster` starts the six processes (each in its own directory under a temporary
root, AOF on), joins them, waits until every slot is served and every replica is in sync,
and stops every process it started (``stop``). ``kill_master_of(key)`` SIGKILLs the master
serving a key's slot (a failover test); ``wait_until`` polls with a generous timeout and
never asserts a duration.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

#: ``pytestmark = BOTH_STORES`` (or as a decorator): run the test on the standalone test
#: Redis and on the session's Redis Cluster (the ``store_kind`` fixture, tests/conftest.py).
BOTH_STORES = pytest.mark.parametrize("store_kind", ["standalone", "cluster"], indirect=True)


def wait_until(check: Callable[[], bool], timeout_s: float = 60.0, every_s: float = 0.1) -> bool:
    """Poll ``check`` until it returns true (True) or ``timeout_s`` pass (False); an
    exception inside ``check`` counts as not yet."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if check():
                return True
        except Exception:  # noqa: BLE001 - a node still starting
            pass
        time.sleep(every_s)
    return False


def _free_ports(count: int) -> list[int]:
    """``count`` distinct ports in 20000-29999 whose cluster bus port (+10000 would leave
    the range, so Redis uses port+10000 anyway: 30000-39999) nothing listens on."""
    import socket

    ports: list[int] = []
    while len(ports) < count:
        port = random.randint(20000, 29999)
        if port in ports:
            continue
        ok = True
        for candidate in (port, port + 10000):
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", candidate))
                except OSError:
                    ok = False
        if ok:
            ports.append(port)
    return ports


class LocalCluster:
    """Six ``redis-server --cluster-enabled yes`` processes joined into 3 masters with one
    replica each (see module docstring). ``url``: ``redis+cluster://127.0.0.1:p1,...``."""

    def __init__(self, masters: int = 3, replicas: int = 1, node_timeout_ms: int = 2000):
        self.count = masters * (1 + replicas)
        self.replicas = replicas
        self.node_timeout_ms = node_timeout_ms
        self.root = Path(tempfile.mkdtemp(prefix="arena-cluster-"))
        self.ports = _free_ports(self.count)
        self.procs: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        """The cluster URL the service takes (every node as a seed)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> LocalCluster:
        """Start, join and wait for the cluster (RuntimeError when it does not form)."""
        for port in self.ports:
            self._start_node(port)
        for port in self.ports:
            if not wait_until(lambda p=port: self._cli(p, "ping").strip() == "PONG", 30):
                raise RuntimeError(f"redis-server on {port} did not start")
        create = subprocess.run(
            [
                "redis-cli",
                "--cluster",
                "create",
                *[f"127.0.0.1:{p}" for p in self.ports],
                "--cluster-replicas",
                str(self.replicas),
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if create.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {create.stdout}{create.stderr}")
        if not wait_until(self.healthy, 120, 0.25):
            raise RuntimeError("the cluster did not become healthy")
        return self

    def _start_node(self, port: int) -> None:
        directory = self.root / str(port)
        directory.mkdir(exist_ok=True)
        log = open(directory / "redis.log", "ab")
        self.procs[port] = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                str(self.node_timeout_ms),
                "--dir",
                str(directory),
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--protected-mode",
                "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()

    def _cli(self, port: int, *args: str) -> str:
        """One command to the node on ``port``: its reply as text, "" when the node does
        not answer or answers an error. Over a socket: the health polls would otherwise
        start a ``redis-cli`` process per node and command every 0.25 s."""
        import redis

        conn = redis.Connection(
            host="127.0.0.1",
            port=port,
            decode_responses=True,
            socket_timeout=10,
            socket_connect_timeout=5,
        )
        try:
            conn.send_command(*args)
            return str(conn.read_response())
        except (redis.RedisError, OSError):
            return ""
        finally:
            conn.disconnect()

    def alive_ports(self) -> list[int]:
        """Ports of the node processes still running."""
        return [p for p, proc in self.procs.items() if proc.poll() is None]

    def healthy(self) -> bool:
        """True when every live node reports ``cluster_state:ok`` and every slot is
        assigned and served, and each live master has its replicas in sync."""
        for port in self.alive_ports():
            info = self._cli(port, "cluster", "info")
            if "cluster_state:ok" not in info or "cluster_slots_ok:16384" not in info:
                return False
            replication = self._cli(port, "info", "replication")
            if "role:master" in replication and self.replicas:
                online = replication.count("state=online")
                if online < self.replicas:
                    return False
        return True

    def master_port_of(self, key: str) -> int:
        """The port of the master serving ``key``'s slot now."""
        slot = self._cli(self.alive_ports()[0], "cluster", "keyslot", key).strip()
        for port in self.alive_ports():
            out = self._cli(port, "cluster", "nodes")
            for line in out.splitlines():
                parts = line.split()
                if "master" in parts[2] and "fail" not in parts[2]:
                    for span in parts[8:]:
                        low, _, high = span.partition("-")
                        if low.isdigit() and int(low) <= int(slot) <= int(high or low):
                            return int(parts[1].split(":")[1].split("@")[0])
        raise RuntimeError(f"no master serves the slot of {key!r}")

    def kill_master_of(self, key: str) -> int:
        """SIGKILL the master serving ``key``'s slot; its port."""
        port = self.master_port_of(key)
        proc = self.procs[port]
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        return port

    def stop(self) -> None:
        """Stop every node this object started and remove its files."""
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)


def running_cluster():
    """Generator for a pytest fixture: a started :class:`LocalCluster`, stopped afterwards;
    the test is skipped when ``redis-server`` / ``redis-cli`` are not installed."""
    import pytest

    if not (shutil.which("redis-server") and shutil.which("redis-cli")):
        pytest.skip("redis-server / redis-cli not installed")
    cluster = LocalCluster()
    try:
        yield cluster.start()
    finally:
        cluster.stop()
