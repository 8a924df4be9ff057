"""``arena play`` end to end: a separate process starts its embedded server (or talks to
one served by the test) and plays seat 0 over the public HTTP API, for every game, with
scripted stdin to the result; Ctrl-C (SIGINT) resigns the seat and ends the process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from service import bootstrap
from tests.support.game_settings import games
from tests.support.polling import wait_for

ROOT = Path(__file__).resolve().parents[2]
#: Generous bounds for a loaded machine (never asserted as durations).
PROCESS_TIMEOUT_S = 1200
#: Scripted answers that play on: the first action, then the move that ends the turn or
#: passes (key 0) confirmed with y when it asks (a line that fits no menu is answered with a
#: sentence and skipped).
ENDING_TOO = "1\n0\ny\n"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env.update(COLUMNS="200", PYTHONPATH=str(ROOT))
    return env


def _arena(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", *args],
        cwd=ROOT,
        env=_env(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT_S,
    )


def _cells(stdout: str) -> list[list[str]]:
    """The seat rows of the final result table (printed last), as cells."""
    assert "final result of match" in stdout
    final = stdout.rsplit("final result of match", 1)[1].split("where the VP came from", 1)[0]
    rows = [
        [c.strip() for c in line.strip("│").split("│")]
        for line in final.splitlines()
        if line.startswith("│ ")
    ]
    return [r for r in rows if len(r) >= 4 and r[1].isdigit()]


def _menus(stdout: str) -> list[str]:
    """Every numbered menu line (``  12   recruit ...``)."""
    return [line for line in stdout.splitlines() if re.match(r"^\s{2,}\d+\s{2,}\S", line)]


@pytest.mark.e2e
def test_auto_play_finishes_a_4_seat_match_against_3_greedy_bots():
    proc = _arena("play", "--auto", "--quiet", "--seed", "7", "--seats", "4", "--bots", "greedy")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = _cells(proc.stdout)
    assert len(rows) == 4
    assert sum(row[2] == "bot (greedy)" for row in rows) == 3
    # AI: 100% Human: where each seat's VP came from, adding up to its VP
    parts = proc.stdout.rsplit("where the VP came from", 1)[1]
    lines = [
        [c.strip() for c in line.strip("│").split("│")]
        for line in parts.splitlines()
        if line.startswith("│ ")
    ]
    lines = [r for r in lines if len(r) == 6 and r[5].isdigit()]
    assert len(lines) == 4 and all(sum(map(int, r[1:5])) == int(r[5]) for r in lines)
    assert all(all(cell for cell in row) for row in rows)  # no empty column
    assert "winner" in proc.stdout
    assert "revealed seed" in proc.stdout


@pytest.mark.e2e
def test_interactive_play_reads_the_numbered_choice_from_stdin():
    # Always answer "1": the first legal action listed. 2 phases x (keep + 7 x (draft, place))
    # plus the AI side need ~31 answers; extra lines are never read.
    proc = _arena("play", "--seats", "3", "--bots", "random", stdin="1\n" * 400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "standard game: you are seat 0, 2 bots (random)" in out
    assert "your tableau" in out and "your decision: draft" in out
    assert "your choice (1-" in out
    # both AI card sides offered, each with its text (the phrasebook: card+text)
    assert len(re.findall(r"\d   Choose the AI card side AI-\d+ \(\w+ \d\) — \S", out)) >= 2
    rows = _cells(out)
    assert len(rows) == 3 and sum(row[2] == "bot (random)" for row in rows) == 2


@pytest.mark.e2e
def test_interactive_aipokalypse_solo_against_the_ai_toma_to_the_result():
    # Help, a bad entry and a number out of range first, then the first action, Ready or
    # Pass (key 0, answered y while other moves remain): the ending move is never a number.
    stdin = "help\nfight\n999\n" + ENDING_TOO * 1500
    proc = _arena("play", "--game", "aipokalypse", "--seats", "1", stdin=stdin)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "Solo Mode against the A.I.Toma (Boss): you are seat 0, no bots" in out
    assert "resign     give up your seat" in out  # the help
    assert '"fight" is neither an action number' in out
    assert re.search(r"There is no action 999: choose a number from 1 to \d+\.", out)
    assert "Choose the faction " in out and "A.I.Toma: difficulty Boss" in out
    assert "your hand (6)" in out and "your slots - ammo" in out
    assert "Phase 2: Battle" in out and "battle card" in out
    menus = _menus(out)
    assert menus and not any("{" in line for line in menus)  # words, never JSON
    assert "against the A.I.Toma - its total strength" in out
    assert len(_cells(out)) == 1


@pytest.mark.e2e
def test_interactive_dead_apocalypse_to_the_result():
    proc = _arena(
        "play",
        "--game",
        "dead-apocalypse",
        "--seats",
        "2",
        "--bots",
        "random",
        stdin=ENDING_TOO * 2500,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "co-operative game, 2 players, standard game: you are seat 0, 1 bot (random)" in out
    assert "Zombie Row over Resource Row" in out and "│ Resource Row" in out
    assert "your hand (" in out and "- deck " in out and "    0   End your turn" in out
    assert "End your turn with " in out and "other moves left (1-" in out  # asked first
    assert not any("{" in line for line in _menus(out))
    assert "the team " in out
    rows = _cells(out)
    assert len(rows) == 2 and {row[2] for row in rows} == {"you", "bot (random)"}


@pytest.fixture
def served(app, embedded_service):
    """The embedded test service (its bot workers running) over real HTTP."""
    bootstrap.install(embedded_service)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="cli-e2e-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", embedded_service
    finally:
        server.shutdown()
        thread.join(10)


@pytest.mark.e2e
@pytest.mark.parametrize("game", games())
def test_ctrl_c_resigns_the_seat_and_ends_the_process(served, game):
    url, service = served
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from cli.main import main; main()",
            "play",
            "--url",
            url,
            "--game",
            game,
            "--seats",
            "2",
        ],
        cwd=ROOT,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # a background shell may start us with SIGINT ignored: Python then never raises
        # KeyboardInterrupt, so give the child the default disposition (Python's handler)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    output: list[str] = []
    reader = threading.Thread(
        target=lambda: output.extend(iter(lambda: proc.stdout.read(1), "")), daemon=True
    )
    reader.start()
    try:
        assert wait_for(lambda: "your choice (" in "".join(output), PROCESS_TIMEOUT_S, 0.2), (
            "".join(output)[-3000:]
        )
        match_id = re.search(r"match (\w{20}) \(", "".join(output)).group(1)
        assert service.match_view(match_id, 0)["resigned"] == []
        proc.send_signal(signal.SIGINT)
        assert proc.wait(PROCESS_TIMEOUT_S) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(30)
    text = "".join(output)
    assert f"Interrupted (Ctrl-C): seat 0 resigned match {match_id}." in text
    assert "Traceback" not in text and "Error:" not in text
    assert 0 in service.match_view(match_id, 0)["resigned"]
