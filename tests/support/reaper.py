"""Leave no process behind: the suite's last line of defence against stray processes.

Fixtures stop what they start (``kill_group`` in tests/conftest.py, ``LocalCluster.stop``,
gunicorn and Chromium fixtures) and do so on Ctrl-C too, since pytest tears fixtures down
after a ``KeyboardInterrupt``. What this module adds, installed by ``tests/conftest.py`` in
every pytest process of a run (the xdist controller and each worker):

- :func:`become_subreaper`: the process becomes a Linux child subreaper
  (``prctl(PR_SET_CHILD_SUBREAPER)``, see prctl(2)), so a process whose parent died (a
  redis-server of a killed worker, an RQ work-horse of a SIGKILLed ``workers.runner``) is
  re-parented to pytest, not to init, and stays findable as a descendant.
- :func:`install_signal_handlers`: SIGINT and SIGTERM both raise ``KeyboardInterrupt``
  (pytest then tears fixtures down as for Ctrl-C); the controller forwards SIGTERM to its
  xdist workers; a watchdog ends the process :data:`GRACE_S` seconds later whatever the
  teardown is doing, and a second signal (:data:`REPEAT_S` or more after the first) ends
  it at once, both after :func:`kill_descendants`.
- :func:`kill_descendants`: SIGKILL every descendant process (and the process groups they
  lead), found by walking ``/proc``; run at exit (``atexit`` and ``pytest_unconfigure``).

Linux only (``/proc``, ``prctl``); elsewhere every function quietly does less.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import threading
import time
from pathlib import Path

#: seconds between the first SIGINT/SIGTERM and the hard stop (fixture teardown gets these)
GRACE_S = 10.0
#: a second signal at least this many seconds after the first stops the process at once
REPEAT_S = 1.0
_PR_SET_CHILD_SUBREAPER = 36
_installed = False


def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants (prctl(2)); False when the
    platform does not support it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def proc_stats() -> dict[int, tuple[int, int]]:
    """``{pid: (ppid, user + system CPU clock ticks)}`` of every process visible in
    ``/proc`` (``stat`` fields 4, 14 and 15; empty without ``/proc``)."""
    stats: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # exited meanwhile
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses
        fields = stat[stat.rfind(")") + 2 :].split()
        stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    return stats


def _parent_map() -> dict[int, int]:
    """``{pid: ppid}`` of every process visible in ``/proc`` (empty without ``/proc``)."""
    return {pid: parent for pid, (parent, _) in proc_stats().items()}


def descendants(pid: int | None = None, parents: dict[int, int] | None = None) -> list[int]:
    """Pids of every living descendant of ``pid`` (default: this process), parents first;
    ``parents``: a ``{pid: ppid}`` already read (default: read ``/proc`` now)."""
    root = os.getpid() if pid is None else pid
    children: dict[int, list[int]] = {}
    for child, parent in (_parent_map() if parents is None else parents).items():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def children() -> list[int]:
    """Pids of this process's direct children."""
    me = os.getpid()
    return [pid for pid, parent in _parent_map().items() if parent == me]


def kill_descendants(rounds: int = 5) -> list[int]:
    """SIGKILL every descendant of this process and every process group one of them leads
    (never this process's own group); repeat while new ones appear (a process forking as
    it dies), at most ``rounds`` times; reap the zombies that are this process's children.
    Returns the pids killed."""
    killed: list[int] = []
    own_group = os.getpgrp()
    for _ in range(rounds):
        pids = descendants()
        if not pids:
            break
        for pid in pids:
            try:
                if os.getpgid(pid) == pid and pid != own_group:
                    os.killpg(pid, signal.SIGKILL)
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except (ProcessLookupError, PermissionError):
                pass
        _reap()
    return killed


def _reap() -> None:
    """Collect exited children (this is only called when the run is ending)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def install_signal_handlers(forward_to_children: bool) -> bool:
    """Install the SIGINT/SIGTERM handling and the exit backstop described in the module
    docstring, once per process (False when already installed or not on the main thread).
    ``forward_to_children``: pass SIGTERM on to the direct children (the xdist controller's
    workers; a terminal's Ctrl-C reaches them by itself)."""
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return False
    _installed = True
    become_subreaper()
    first_signal_at: list[float] = []

    def hard_stop(signum: int) -> None:
        kill_descendants()
        os._exit(128 + signum)

    def handler(signum: int, _frame) -> None:
        if first_signal_at:
            # the same Ctrl-C often arrives twice (the terminal's and one passed on by
            # scripts/test): only a signal a moment later means "stop now"
            if time.monotonic() - first_signal_at[0] >= REPEAT_S:
                hard_stop(signum)
            return
        first_signal_at.append(time.monotonic())
        if forward_to_children and signum == signal.SIGTERM:
            for pid in children():
                try:
                    os.kill(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        watchdog = threading.Timer(GRACE_S, hard_stop, args=(signum,))
        watchdog.daemon = True
        watchdog.start()
        raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
    atexit.register(kill_descendants)
    return True


def is_installed() -> bool:
    """True once :func:`install_signal_handlers` ran in this process."""
    return _installed


__all__: list[str] = [
    "GRACE_S",
    "become_subreaper",
    "children",
    "descendants",
    "install_signal_handlers",
    "is_installed",
    "kill_descendants",
]
