"""Computer analysis of a finished match (issue 23 item 3): for every decision of every seat,
what the game's estimator (:mod:`domain.estimates`) thinks of the command played and of the
best alternative, from that seat's knowledge at that moment only.

Pure: no I/O, no clock. The caller (``service/usecases/analysis.py``) turns a verified
export into :class:`Turn` s; :func:`analyse` folds the log, and at each turn with a choice
asks ``estimator.estimate(state, seat, legal commands, budget, rng)``. The estimator reads
the position through ``view(state, seat)`` only (its contract), so a seat's analysis never
depends on what it could not see (``tests/unit/test_analysis.py`` re-deals the hidden parts).

Labels (:data:`THRESHOLDS`): the *loss* of a decision is the best alternative's value less
the played command's value (0 when the played command is at least as good). By metric:

- ``win_probability`` (0..1): inaccuracy from a loss of 0.05, mistake from 0.10, blunder
  from 0.20 (five, ten and twenty points of winning chance);
- ``expected_score`` (the game's VP): inaccuracy from 2 VP, mistake from 4 VP, blunder
  from 8 VP.

Accuracy (:func:`move_accuracy`): a decision scores ``100 * exp(-loss / scale)`` with
``scale`` the metric's mistake threshold (a loss as large as a mistake scores 37, a perfect
decision 100); a seat's accuracy is the mean over its decisions with a choice (``None``
without any). Decisions with a single legal command are counted (``forced``) but not
estimated.

Forks: a forked match's log begins with the decisions of the match it was forked from
(copied up to the fork's version, by that match's seats). Their entries say
``from_parent: true``; they are valued like the others but are no decision of the fork's
seats, so a seat's summary (counts, accuracy, labels) leaves them out.

Determinism: the RNG of the decision at version ``v`` of seat ``s`` is
``Random(int(SHA-256(seed || v || s)))`` (:func:`decision_rng`) with ``seed`` the caller's
bytes (the service uses the log's head hash), so the same log and budget give the same
analysis. CPU: at most ``budget`` rollouts per decision (twice that for a played command the
estimator pruned, :func:`analyse`).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.engine import Engine, Event, fold
from domain.estimates import Estimator


class AnalysedEngine(Engine, Protocol):
    """An :class:`domain.engine.Engine` with :meth:`domain.engine.EngineBase.estimator` (every
    engine derives from ``EngineBase``)."""

    def estimator(self) -> Estimator | None: ...


#: labels from the mildest: a loss at least the threshold earns the label
LABELS = ("inaccuracy", "mistake", "blunder")

#: metric -> label -> smallest loss earning it (module doc)
THRESHOLDS: Mapping[str, Mapping[str, float]] = {
    "win_probability": {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20},
    "expected_score": {"inaccuracy": 2.0, "mistake": 4.0, "blunder": 8.0},
}


@dataclass(frozen=True)
class Turn:
    """One command of the log: ``version`` (events before it, the version it was decided
    at), the acting ``seat``, the ``command`` (a JSON object), its ``cause`` (``player``,
    ``bot``, ``timeout``, ...), the ``events`` it produced (folded after it) and
    ``from_parent`` (True: copied into a fork from the match it was forked from, decided by
    that match's seat)."""

    version: int
    seat: int | None
    command: Mapping[str, Any]
    cause: str
    events: Sequence[Event]
    from_parent: bool = False


def label(metric: str, loss: float) -> str | None:
    """The worst label of :data:`THRESHOLDS` ``loss`` reaches, or ``None``. Raises KeyError
    for an unknown metric."""
    found = None
    for name in LABELS:
        if loss >= THRESHOLDS[metric][name] - 1e-12:
            found = name
    return found


def move_accuracy(metric: str, loss: float) -> float:
    """``100 * exp(-loss / mistake threshold)`` in 0..100 (module doc)."""
    return 100.0 * math.exp(-max(0.0, loss) / THRESHOLDS[metric]["mistake"])


def decision_rng(seed: bytes, version: int, seat: int) -> random.Random:
    """The RNG of the decision at ``version`` by ``seat``:
    ``Random(int(SHA-256(seed || version (8 bytes) || seat (2 bytes))))``."""
    digest = hashlib.sha256(seed + version.to_bytes(8, "big") + seat.to_bytes(2, "big")).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _canonical(command: Mapping[str, Any]) -> str:
    return json.dumps(command, sort_keys=True, separators=(",", ":"))


def _rounded(value: float) -> float:
    return round(float(value), 6)


def analyse(
    engine: AnalysedEngine,
    setup: Sequence[Event],
    turns: Sequence[Turn],
    budget: int,
    seed: bytes,
    seat_count: int,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of one match (module doc): :func:`analyse_turns` over every turn, then
    :func:`summary`.

    ``setup``: the set-up events; ``turns``: every command after them in log order;
    ``budget``: rollouts per decision (>= 1); ``seed``: the analysis seed (bytes);
    ``seat_count``: the match's seats; ``progress(done, total)``: called after each turn
    (``total`` = ``len(turns)``).

    Returns ``{"metric", "budget", "thresholds", "decisions": [...], "seats": [...]}``:
    each decision ``{"version", "seat", "cause", "from_parent", "choices" (legal commands),
    "played", "played_value", "best" (the best alternative), "best_value", "loss", "label",
    "accuracy"}`` (``best``/``best_value`` ``None`` and no label for a forced decision:
    ``choices`` 1; ``from_parent``: :attr:`Turn.from_parent`); each seat ``{"seat",
    "decisions", "forced", "accuracy", "inaccuracies", "mistakes", "blunders"}`` over its
    own decisions (``from_parent`` ones left out).

    Raises ValueError when the engine has no estimator, for a ``budget`` below 1, or when a
    turn's command is not legal where the log puts it (a log that was not verified).
    """
    decisions = analyse_turns(engine, setup, turns, budget, seed, progress=progress)
    return summary(engine, decisions, budget, seat_count)


def analyse_turns(
    engine: AnalysedEngine,
    setup: Sequence[Event],
    turns: Sequence[Turn],
    budget: int,
    seed: bytes,
    start: int = 0,
    stop: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    enough: Callable[[], bool] | None = None,
) -> list[dict[str, Any]]:
    """The decision entries (shape: :func:`analyse`) of ``turns[start:stop]``, the log
    folded up to ``turns[start]`` first; a slice's entries are the whole analysis's entries
    of those turns (each decision has its own RNG), so a long analysis may run in slices.
    ``progress(done, total)`` after each turn of the slice (``done`` counts from the first
    turn of the log); ``enough()``, asked after each turn, ends the slice early when true
    (the caller's time is up: the last ``done`` says where it ended). Raises ValueError as
    :func:`analyse`."""
    if engine.estimator() is None:
        raise ValueError(f"{engine.game_id} has no estimator")
    if budget < 1:
        raise ValueError("budget must be at least 1")
    stop = len(turns) if stop is None else min(stop, len(turns))
    state = fold(engine, setup)
    for turn in turns[:start]:
        state = fold(engine, turn.events, state)
    decisions: list[dict[str, Any]] = []
    for index in range(start, stop):
        turn = turns[index]
        if turn.seat is not None and turn.seat in engine.pending(state):
            entry = analyse_decision(engine, state, turn, budget, seed)
            if entry is not None:
                decisions.append(entry)
        state = fold(engine, turn.events, state)
        if progress is not None:
            progress(index + 1, len(turns))
        if enough is not None and enough():
            break
    return decisions


def summary(
    engine: AnalysedEngine, decisions: Sequence[Mapping[str, Any]], budget: int, seat_count: int
) -> dict[str, Any]:
    """The analysis document (shape: :func:`analyse`) of every decision entry of a match."""
    estimator = engine.estimator()
    if estimator is None:
        raise ValueError(f"{engine.game_id} has no estimator")
    metric = estimator.metric
    return {
        "metric": metric,
        "budget": budget,
        "thresholds": dict(THRESHOLDS[metric]),
        "decisions": [dict(d) for d in decisions],
        "seats": [_seat_summary(seat, decisions) for seat in range(seat_count)],
    }


def analyse_decision(
    engine: AnalysedEngine, state: Any, turn: Turn, budget: int, seed: bytes
) -> dict[str, Any] | None:
    """The entry of one decision (shape: :func:`analyse`) of ``turn.seat`` at ``state`` (the
    fold at ``turn.version``), or ``None`` when the command is not one of the seat's legal
    game commands (a platform command: resign, abandon). Raises ValueError as
    :func:`analyse`; ``None`` too for a turn of no seat."""
    estimator = engine.estimator()
    if estimator is None:
        raise ValueError(f"{engine.game_id} has no estimator")
    seat = turn.seat
    if seat is None:
        return None
    legal = engine.legal_actions(state, seat)
    keys = [_canonical(c) for c in legal]
    played_key = _canonical(turn.command)
    if played_key not in keys:
        if turn.command.get("type") in ("resign", "abandon"):
            return None
        raise ValueError(f"the command at version {turn.version} is not legal there")
    played = keys.index(played_key)
    entry: dict[str, Any] = {
        "version": turn.version,
        "seat": turn.seat,
        "cause": turn.cause,
        "from_parent": turn.from_parent,
        "choices": len(legal),
        "played": dict(turn.command),
        "played_value": None,
        "best": None,
        "best_value": None,
        "loss": 0.0,
        "label": None,
        "accuracy": None,
    }
    if len(legal) == 1:
        return entry
    rng = decision_rng(seed, turn.version, seat)
    values = [float(v) for v in estimator.estimate(state, seat, legal, budget, rng)]
    others = [i for i in range(len(legal)) if i != played and math.isfinite(values[i])]
    best = max(others, key=lambda i: (values[i], -i)) if others else None
    played_value = values[played]
    if best is not None and not math.isfinite(played_value):
        # the estimator pruned the played command: weigh it against the best one alone
        pair = estimator.estimate(
            state,
            seat,
            [legal[best], legal[played]],
            budget,
            decision_rng(seed + b"pair", turn.version, seat),
        )
        values[best], played_value = float(pair[0]), float(pair[1])
    if best is None or not math.isfinite(played_value):
        return entry
    metric = estimator.metric
    loss = max(0.0, values[best] - played_value)
    entry.update(
        played_value=_rounded(played_value),
        best=dict(legal[best]),
        best_value=_rounded(values[best]),
        loss=_rounded(loss),
        label=label(metric, loss),
        accuracy=_rounded(move_accuracy(metric, loss)),
    )
    return entry


def _seat_summary(seat: int, decisions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    mine = [d for d in decisions if d["seat"] == seat and not d.get("from_parent")]
    scored = [d["accuracy"] for d in mine if d["accuracy"] is not None]
    return {
        "seat": seat,
        "decisions": len(mine),
        "forced": sum(1 for d in mine if d["choices"] == 1),
        "accuracy": _rounded(sum(scored) / len(scored)) if scored else None,
        "inaccuracies": sum(1 for d in mine if d["label"] == "inaccuracy"),
        "mistakes": sum(1 for d in mine if d["label"] == "mistake"),
        "blunders": sum(1 for d in mine if d["label"] == "blunder"),
    }
