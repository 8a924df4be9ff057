"""The documentation's curl blocks run as written against the embedded server (``arena
serve`` without ``REDIS_URL``), and every answer they show is what the server answers:
the whole of ``docs/walkthrough.md`` and the README's "## A taste of the API".

Every ```sh block of a page (or of its section, up to the next ``## `` heading) runs, in
order, in one bash process (``set -euo pipefail``, ``localhost:8000`` pointed at the test's
server, a scratch working directory). A run of ``#>`` lines after some commands is their
expected output: ``#> `` starts an output line, ``#>   `` (three spaces) continues the
previous one, and ``…`` stands for any text (ids, tokens, hashes, times, dealt cards). Each
output line must match.

``ARENA_UPDATE_DOCS=1`` rewrites the ``#>`` lines of those pages from this run's answers
(with those parts elided) instead of checking them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cli.serve import EmbeddedServer

ROOT = Path(__file__).resolve().parents[2]
#: (page, its section heading or None for the whole page, the fewest checked steps)
PAGES = [
    (ROOT / "docs" / "walkthrough.md", None, 20),
    (ROOT / "README.md", "## A taste of the API", 2),
]
MARK = "@@step "
#: width of a ``#>`` line before it is continued on the next one
WIDTH = 92
#: JSON members whose string values change with every match
VOLATILE_KEYS = (
    "match_id",
    "token",
    "seed_commitment",
    "hash",
    "prev_hash",
    "nonce",
    "decision_id",
    "current_decision_id",
    "command_id",
    "rematch",
    "rematch_of",
    "forked_from",
    "card",
)
_VOLATILE = re.compile(r'"(' + "|".join(VOLATILE_KEYS) + r')":"[^"]*"')
_TIMESTAMP = re.compile(r'"\d{4}-\d\d-\d\dT[^"]*"')
_HEX = re.compile(r'"[0-9a-f]{16,}"')


def bounds(text: str, heading: str | None) -> tuple[int, int]:
    """``(start, end)`` of the section of ``text`` under ``heading`` (up to the next ``## ``
    heading), or of the whole text when ``heading`` is None; ValueError when it is missing."""
    if heading is None:
        return 0, len(text)
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return start, end if end >= 0 else len(text)


def section(text: str, heading: str | None) -> str:
    """The part of ``text`` that runs: see :func:`bounds`."""
    start, end = bounds(text, heading)
    return text[start:end]


def blocks(text: str) -> list[str]:
    """The ```sh blocks of ``text`` (their contents), in order."""
    return re.findall(r"^```sh\n(.*?)^```$", text, flags=re.S | re.M)


def steps(script_blocks: list[str]) -> list[tuple[list[str], list[str]]]:
    """``(command lines, expected output lines)`` per step: the commands since the last
    ``#>`` run and the ``#>`` run that follows them (joined to whole output lines; empty
    for the commands after the last run)."""
    result: list[tuple[list[str], list[str]]] = []
    commands: list[str] = []
    expected: list[str] = []
    for block in script_blocks:
        for line in block.splitlines():
            if line.startswith("#>"):
                body = line[2:]
                if body.startswith("   ") and expected:
                    expected[-1] += body[3:]
                else:
                    expected.append(body[1:] if body.startswith(" ") else body)
                continue
            if expected:
                result.append((commands, expected))
                commands, expected = [], []
            commands.append(line)
    result.append((commands, expected))
    return result


def script(all_steps: list[tuple[list[str], list[str]]], base: str) -> str:
    """One bash script running every step, printing :data:`MARK` before each step's output."""
    out = ["set -euo pipefail"]
    for index, (commands, _) in enumerate(all_steps):
        out.append(f"echo '{MARK}{index}'")
        out.extend(line.replace("localhost:8000", base) for line in commands)
    return "\n".join(out) + "\n"


def outputs(stdout: str, count: int) -> list[list[str]]:
    """Each step's output lines, from the marked stdout of :func:`script`."""
    found: list[list[str]] = [[] for _ in range(count)]
    current = None
    for line in stdout.splitlines():
        if line.startswith(MARK):
            current = int(line[len(MARK) :])
        elif current is not None:
            found[current].append(line)
    return found


def matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is ``expected`` with each ``…`` standing for any text."""
    pattern = ".*?".join(re.escape(part) for part in expected.split("…"))
    return re.fullmatch(pattern, actual, flags=re.S) is not None


def elide(line: str) -> str:
    """An output line with what changes with every match replaced by ``…``."""
    line = _VOLATILE.sub(lambda m: f'"{m.group(1)}":"…"', line)
    line = _TIMESTAMP.sub('"…"', line)
    return _HEX.sub('"…"', line)


def wrap(line: str) -> list[str]:
    """``#>`` lines for one output line: cut after commas to stay within :data:`WIDTH`."""
    pieces = re.split(r"(?<=,)", line)
    lines, current = [], ""
    for piece in pieces:
        if current and len(current) + len(piece) > WIDTH - 5:
            lines.append(current)
            current = piece
        else:
            current += piece
    lines.append(current)
    return ["#> " + lines[0]] + ["#>   " + rest for rest in lines[1:]]


def rewrite(text: str, heading: str | None, answers: list[list[str]]) -> str:
    """Page ``text`` with each ``#>`` run of its section replaced by the elided ``answers``
    of its step."""
    start, end = bounds(text, heading)
    lines = text[start:end].split("\n")
    out: list[str] = []
    step = 0
    in_run = False
    for line in lines:
        if line.startswith("#>"):
            if not in_run:
                out.extend(w for answer in answers[step] for w in wrap(elide(answer)))
                step += 1
                in_run = True
            continue
        in_run = False
        out.append(line)
    return text[:start] + "\n".join(out) + text[end:]


@pytest.fixture(scope="module")
def server():
    with EmbeddedServer("127.0.0.1", 0, access_log=False) as embedded:
        yield embedded


@pytest.mark.parametrize(
    ("page", "heading", "fewest"), PAGES, ids=[str(page.relative_to(ROOT)) for page, _, _ in PAGES]
)
def test_the_documented_curl_blocks_run_and_show_what_the_server_answers(
    server, tmp_path, page, heading, fewest
):
    missing = [tool for tool in ("bash", "curl", "jq", "node") if shutil.which(tool) is None]
    if missing:  # .ci/run installs them; elsewhere the check is skipped
        (pytest.fail if os.environ.get("CI") else pytest.skip)(
            f"the walkthrough needs {', '.join(missing)}"
        )
    text = page.read_text(encoding="utf-8")
    all_steps = steps(blocks(section(text, heading)))
    assert sum(1 for _, expected in all_steps if expected) >= fewest
    base = server.url.removeprefix("http://")
    run = subprocess.run(
        ["bash", "-c", script(all_steps, base)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    answers = outputs(run.stdout, len(all_steps))
    if os.environ.get("ARENA_UPDATE_DOCS") == "1":
        page.write_text(
            rewrite(text, heading, [a for (_, e), a in zip(all_steps, answers, strict=True) if e]),
            encoding="utf-8",
        )
        return
    for (commands, expected), actual in zip(all_steps, answers, strict=True):
        if not expected:
            continue
        where = "\n".join(commands)
        assert len(actual) == len(expected), (where, actual)
        for want, got in zip(expected, actual, strict=False):
            assert matches(want, got), f"{where}\n{page.name}: {want}\nserver: {got}"


def test_matching_and_eliding_can_fail():
    assert matches('{"a":"…","b":1}', '{"a":"x y","b":1}')
    assert not matches('{"a":"…","b":1}', '{"a":"x","b":2}')
    assert not matches('{"b":1}', '{"b":1,"c":2}')
    assert (
        elide('{"match_id":"abc","at":"2026-12-01T10:00:00+00:00","x":"0123456789abcdef0"}')
        == '{"match_id":"…","at":"…","x":"…"}'
    )
    assert steps(['a\n#> {"x":1,\n#>   "y":2}\nb\n']) == [(["a"], ['{"x":1,"y":2}']), (["b"], [])]
