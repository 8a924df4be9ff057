"""``arena analyse EXPORT``: the computer analysis of an exported match log, in-process
(issue 23 item 3; the same analysis ``POST /v1/analyses`` runs in a worker).

The log is verified first (as ``arena replay``); then every decision of every seat is
valued by the game's estimator from that seat's knowledge (:mod:`domain.analysis`), with
a progress bar. Printed: each seat's accuracy and label counts, its value curve over the
versions (one character per decision: ``▁`` lowest .. ``█`` highest, in the metric's
range), and every inaccuracy, mistake and blunder with the better move, each move in the
game's words (its phrasebook, as ``arena play``'s menu says a command) with the command
beside it; in a fork, the decisions copied from the match it was forked from are marked
as that match's (``from_parent``) and its seats' figures leave them out. ``--json`` prints
the result document instead (the ``result`` of ``GET /v1/analyses/{id}``). The seed is the
log's head hash, so the same file and budget print the same analysis. Exit 1 when the log
does not verify or its game has no estimator.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from cli.replay import load_log, verify_log

#: sparkline characters, lowest value first
BARS = "▁▂▃▄▅▆▇█"
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def run_analysis(log: dict[str, Any], budget: int, progress=None) -> dict[str, Any]:
    """The analysis result of a verified ``log`` (``service.usecases.analysis``'s shape:
    ``{"game", "match_id", "seat_count", "forked_from", "metric", "budget", "thresholds",
    "decisions", "seats"}``). Raises ValueError when the game has no estimator."""
    from domain.analysis import analyse
    from domain.games import registry
    from service.usecases.analysis import result_document, turns_of

    engine = registry()[log["game"]]
    setup, turns = turns_of(log)
    result = analyse(
        engine,
        setup,
        turns,
        budget,
        str(log["events"][-1]["hash"]).encode(),
        seat_count=len(log["seats"]),
        progress=progress,
    )
    return result_document(log, result)


def sparkline(values: list[float], low: float, high: float) -> str:
    """One :data:`BARS` character per value, scaled from ``low`` to ``high``."""
    span = (high - low) or 1.0
    return "".join(
        BARS[min(len(BARS) - 1, max(0, int((v - low) / span * len(BARS))))] for v in values
    )


def _command(command: dict[str, Any] | None) -> str:
    if not command:
        return "-"
    rest = " ".join(
        f"{k}={json.dumps(v, separators=(',', ':')).strip(chr(34))}"
        for k, v in sorted(command.items())
        if k != "type"
    )
    return f"{command.get('type', '?')} {rest}".strip()


def describer(game: str) -> Callable[[dict[str, Any] | None, int], str]:
    """``(command, seat) -> words``: a command of ``game`` in its phrasebook's words with the
    command beside it (``Draft Y3 - 8 VP per ... [draft card=071]``), as ``arena play``'s
    menu says it (:class:`cli.render.cards.CardBook` over the game's public card data); the
    command alone for a game without a phrasebook (or not installed here)."""
    from cli.render.cards import CardBook
    from domain.engine import public_cards
    from domain.games import registry

    engine = registry().get(game)
    phrases = CardBook(public_cards(engine)).phrases if engine is not None else None

    def describe(command: dict[str, Any] | None, seat: int) -> str:
        raw = _command(command)
        if phrases is None or not command:
            return raw
        return f"{phrases.command(command, (), seat)} [{raw}]"

    return describe


def decider(result: dict[str, Any], decision: dict[str, Any]) -> str:
    """Who made ``decision``: its seat, or, copied into a fork from the match it was forked
    from (``from_parent``), that match's seat (``0 of match <id> (before the fork)``)."""
    if not decision.get("from_parent"):
        return str(decision["seat"])
    fork = result.get("forked_from") or {}
    return f"{decision['seat']} of match {fork.get('match_id', '?')} (before the fork)"


def print_report(console: Console, result: dict[str, Any]) -> None:
    """The seats' accuracy, curves and labelled decisions of ``result``."""
    metric = result["metric"]
    valued = [d for d in result["decisions"] if d["played_value"] is not None]
    values = [d["played_value"] for d in valued] or [0.0]
    low, high = (0.0, 1.0) if metric == "win_probability" else (min(values), max(values))
    table = Table(
        title=f"{result['game']} match {result['match_id']}: analysis "
        f"({metric.replace('_', ' ')}, budget {result['budget']})"
    )
    for name in ("seat", "accuracy", "inaccuracies", "mistakes", "blunders", "curve"):
        table.add_column(name)
    for seat in result["seats"]:
        mine = [d for d in valued if d["seat"] == seat["seat"] and not d.get("from_parent")]
        curve = sparkline([d["played_value"] for d in mine], low, high)
        accuracy = "-" if seat["accuracy"] is None else f"{seat['accuracy']:.1f}"
        table.add_row(
            str(seat["seat"]),
            accuracy,
            str(seat["inaccuracies"]),
            str(seat["mistakes"]),
            str(seat["blunders"]),
            curve,
        )
    console.print(table)
    fork = result.get("forked_from")
    if fork:
        console.print(
            f"A fork of match {fork['match_id']} at version {fork['version']}: the decisions "
            "before it were made there, by that match's seats, and are left out of the "
            "figures above."
        )
    marked = [d for d in valued if d["label"]]
    if not marked:
        console.print("No inaccuracy, mistake or blunder.")
        return
    errors = Table(title="Where it was lost (value of the move played -> of the better move)")
    for name in ("version", "seat", "label", "played", "better move", "values"):
        errors.add_column(name)
    describe = describer(result["game"])
    for d in marked:
        errors.add_row(
            str(d["version"]),
            decider(result, d),
            f"{d['label']} {MARKS[d['label']]}",
            escape(describe(d["played"], d["seat"])),  # "[draft card=071]" is no markup
            escape(describe(d["best"], d["seat"])),
            f"{d['played_value']:.3g} -> {d['best_value']:.3g}",
        )
    console.print(errors)


@click.command("analyse")
@click.argument("export", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--budget",
    type=click.IntRange(1, 4096),
    default=64,
    show_default=True,
    help="Rollouts per decision (CPU: about budget x decisions rollouts).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result document as JSON.")
def analyse_command(export: str, budget: int, as_json: bool) -> None:
    """Analyse the exported match log EXPORT: every decision of every seat, from that seat's
    knowledge, with the better move for each mistake."""
    log = load_log(export)
    report = verify_log(log)
    errors = Console(stderr=True)
    if not report.get("valid"):
        errors.print(
            "[bold red]log does not verify:[/] "
            + "; ".join(str(e) for e in report.get("errors") or ["unknown reason"])
        )
        sys.exit(1)
    columns = (TextColumn("analysing"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, console=errors, transient=True) as bar:
        task = bar.add_task("analysis", total=max(1, len(log["events"])))
        try:
            result = run_analysis(
                log,
                budget,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except ValueError as error:
            errors.print(f"[bold red]cannot analyse:[/] {error}")
            sys.exit(1)
    if as_json:
        click.echo(json.dumps(result, indent=2, sort_keys=True))
    else:
        print_report(Console(), result)
