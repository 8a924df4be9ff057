"""Where the suite's CPU goes: ``ARENA_TEST_CPU_LOG=FILE`` records, for every test, the CPU
seconds (user + system) that its run (setup, call, teardown) cost the pytest process and
every process under it (servers, workers, browsers, compilers the test or its fixtures
started), and ``python -m tests.support.cpu_log FILE`` prints the tests by cost.

Why CPU and not ``--durations``: the suite is CPU-bound on a 2-core machine (about 1,000 s
of CPU for 3 xdist workers), so its wall time falls only with its CPU, and a test's CPU
moves far less than its wall time when other processes share the cores (docs/testing.md).

How it counts (Linux ``/proc``): before and after each test, the CPU of every live
process under the pytest process (``/proc/PID/stat`` fields 14-15, clock ticks), plus
the pytest process's own and its reaped children's (``os.times``). A process that lives
across tests (a session's Chromium, cluster or production stack) is charged to the tests
in which it used the CPU; a grandchild that exits before its parent reaps it may be lost.
The shared test Redis is not counted. Each xdist worker appends JSON lines
``{"nodeid": str, "cpu_s": float, "wall_s": float, "worker": str}`` to ``FILE``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import reaper

ENV = "ARENA_TEST_CPU_LOG"
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _tree_ticks(root: int) -> tuple[dict[int, int], set[int]]:
    """``({pid: user + system clock ticks}, {pids whose parent is root})`` of every live
    process under ``root`` (not ``root`` itself), read from ``/proc``
    (:func:`tests.support.reaper.proc_stats`); empty where there is no ``/proc``."""
    stats = reaper.proc_stats()
    under = reaper.descendants(root, {pid: parent for pid, (parent, _) in stats.items()})
    return {pid: stats[pid][1] for pid in under}, {pid for pid in under if stats[pid][0] == root}


def _own_seconds() -> float:
    """CPU seconds of this process and its reaped children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class CpuLog:
    """The pytest plugin: one JSON line per test to ``path`` (module doc)."""

    def __init__(self, path: str, worker: str):
        self.path, self.worker = path, worker

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        root = os.getpid()
        (before_tree, before_children), before_own = _tree_ticks(root), _own_seconds()
        start = time.perf_counter()
        yield
        after_tree, _ = _tree_ticks(root)
        # A child that lived before the test and was reaped during it lands in os.times
        # with its whole life's CPU: take off what earlier tests were already charged. A
        # vanished grandchild (reaped by its own parent) is not in os.times: count 0.
        gone = sum(before_tree[pid] for pid in before_children if pid not in after_tree)
        tree = (sum(t - before_tree.get(pid, 0) for pid, t in after_tree.items()) - gone) / _TICK
        line = {
            "nodeid": item.nodeid,
            "cpu_s": round(_own_seconds() - before_own + tree, 3),
            "wall_s": round(time.perf_counter() - start, 3),
            "worker": self.worker,
        }
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")


def register(config: pytest.Config) -> None:
    """Install :class:`CpuLog` when ``ARENA_TEST_CPU_LOG`` names a file."""
    path = os.environ.get(ENV)
    if path:
        worker = getattr(config, "workerinput", {}).get("workerid", "main")
        config.pluginmanager.register(CpuLog(path, worker), "arena-cpu-log")


def report(path: str, top: int = 60) -> str:
    """The tests of a log by CPU (the most first, ``top`` of them), then the sums per file
    and in all, as text."""
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    rows = [r for r in rows if r["nodeid"].startswith("tests/")]  # not a test's own pytest run
    rows.sort(key=lambda r: -r["cpu_s"])
    total = sum(r["cpu_s"] for r in rows)
    lines = [f"{len(rows)} tests, {total:.0f} s of CPU, {sum(r['wall_s'] for r in rows):.0f} s"]
    lines += [f"{r['cpu_s']:8.1f} {r['wall_s']:8.1f}  {r['nodeid']}" for r in rows[:top]]
    per_file: dict[str, float] = defaultdict(float)
    for r in rows:
        per_file[r["nodeid"].split("::")[0]] += r["cpu_s"]
    lines.append("-- per file")
    lines += [
        f"{cpu:8.1f}  {name}" for name, cpu in sorted(per_file.items(), key=lambda kv: -kv[1])[:top]
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 60))
