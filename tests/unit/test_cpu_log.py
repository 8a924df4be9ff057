"""``ARENA_TEST_CPU_LOG`` (:mod:`tests.support.cpu_log`) charges each test the CPU it cost,
also when a child process outlives the test that started it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.inner_pytest import run_pytest

CONFTEST = """
from tests.support import cpu_log

def pytest_configure(config):
    cpu_log.register(config)
"""

# test_a starts a child that burns 0.6 s of its own CPU, says so, then sleeps; test_b
# (which itself burns nothing) kills and reaps it.
TESTS = """
import subprocess, sys

BURN = "import time, sys\\nwhile time.process_time() < 0.6: pass\\nprint('burnt', flush=True)\\nsys.stdin.read()"
child = []

def test_a():
    proc = subprocess.Popen([sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "burnt\\n"
    child.append(proc)

def test_b():
    proc = child.pop()
    proc.stdin.close()
    proc.wait()
"""


def test_a_child_reaped_in_a_later_test_is_charged_once(tmp_path: Path) -> None:
    """The child's 0.6 s land on the test that started it; the test that reaps it is not
    charged them a second time (os.times adds a reaped child's whole life)."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_child.py").write_text(TESTS)
    log = tmp_path / "cpu.jsonl"
    run_pytest(tmp_path, "-q", "-p", "no:xdist", env={"ARENA_TEST_CPU_LOG": str(log)})
    cpu = {
        json.loads(line)["nodeid"]: json.loads(line)["cpu_s"]
        for line in log.read_text().splitlines()
    }
    assert cpu["test_child.py::test_a"] >= 0.55, cpu
    assert cpu["test_child.py::test_b"] < 0.3, cpu
