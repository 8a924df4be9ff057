"""``arena replay FILE``: verify an exported match log and print its final scores.

The log is the ``GET /v1/matches/{id}/export`` document (``"format":
"apocalypse-arena/log@2"``, or an older match's ``"apocalypse-arena/log@1"``). Verification
is the service's (hash chain, seed commitment,
re-deciding every logged command from the revealed seed, folding, comparing); this command
only loads, reports and sets the exit code: 0 when the log verifies, 1 otherwise.
"""

from __future__ import annotations

import json
import lzma
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from cli.render import result_table

XZ_MAGIC = b"\xfd7zXZ\x00"
"""The first six bytes of an xz file (the .xz file format, section 2.1.1.1)."""


def load_log(path: str) -> dict[str, Any]:
    """Read the JSON log at ``path`` (``-`` = stdin), plain or xz-compressed (told by the
    file's magic bytes, not its name: ``m.json.xz`` and a renamed copy both load).

    Raises:
        click.ClickException: unreadable file, broken xz data or not a JSON object.
    """
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        if raw.startswith(XZ_MAGIC):
            raw = lzma.decompress(raw)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, lzma.LZMAError) as exc:
        raise click.ClickException(f"cannot read log {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise click.ClickException(f"{path} is not a match log (expected a JSON object)")
    return data


def verify_log(log: dict[str, Any]) -> dict[str, Any]:
    """``{"valid", "version", "result", "errors"}`` for ``log``: the service's verification
    (``service.log.verify.verify_log``) against the installed games; never raises for bad content."""
    from domain.games import registry
    from service.log.verify import verify_log as service_verify

    return service_verify(log, registry())


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def replay(file: str) -> None:
    """Verify the exported match log FILE and print its final scores (exit 1 if invalid)."""
    console = Console()
    log = load_log(file)
    report = verify_log(log)
    if not report.get("valid"):
        errors = report.get("errors") or ["unknown reason"]
        Console(stderr=True).print(
            "[bold red]log does not verify:[/] "
            + "; ".join(e if isinstance(e, str) else json.dumps(e) for e in errors)
        )
        sys.exit(1)
    console.print(
        f"[bold green]verified[/] {log.get('game')} match {log.get('match_id')}: "
        f"{report.get('version')} events (hash chain, seed commitment, every "
        "decision re-derived from the seed)"
    )
    console.print(
        result_table(
            report.get("result") or {}, log.get("seats") or [], "final scores", game=log.get("game")
        )
    )
