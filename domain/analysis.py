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

Slices: :func:`analyse_slice` analyses part of the log and may stop in the middle of a
decision (after any rollout of a :class:`domain.estimates.Resumable` estimator, when the
caller's ``enough`` says so); it answers that decision's :data:`Pending` document, and the
next slice, in another process, goes on from it. The entries are the same as one
uninterrupted run's, to the last bit (``tests/unit/test_analysis_split.py``).
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

#: a decision part-way through its rollouts (JSON): ``{"version", "seat", "stage"
#: ("all": the legal commands; "pair": the played command the estimator pruned against the
#: best one, ``best`` its index among the legal commands), "estimate" (the estimator's
#: resume document, :class:`domain.estimates.Tally`; ``None``: the stage not begun),
#: "rollouts" (the decision's rollouts so far, over all its slices: for the progress;
#: absent in a document of an earlier version, read as 0)}``
Pending = dict[str, Any]


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
    progress: Callable[[float, int], None] | None = None,
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
    progress: Callable[[float, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The decision entries (shape: :func:`analyse`) of ``turns[start:stop]``, the log
    folded up to ``turns[start]`` first: :func:`analyse_slice` never stopped early.
    Raises ValueError as :func:`analyse`."""
    return analyse_slice(
        engine, setup, turns, budget, seed, start, stop, progress=progress
    ).decisions


@dataclass(frozen=True)
class Slice:
    """What :func:`analyse_slice` did: ``decisions`` (the entries of the turns it
    finished), ``next`` (the index of the first turn it did not finish), ``pending`` (the
    :data:`Pending` document of the decision at ``turns[next]`` when it stopped inside
    it, else ``None``) and ``rollouts`` (the rollouts it counted: those of
    :class:`domain.estimates.Resumable` estimators)."""

    decisions: list[dict[str, Any]]
    next: int
    pending: Pending | None
    rollouts: int


def analyse_slice(
    engine: AnalysedEngine,
    setup: Sequence[Event],
    turns: Sequence[Turn],
    budget: int,
    seed: bytes,
    start: int = 0,
    stop: int | None = None,
    pending: Pending | None = None,
    progress: Callable[[float, int], None] | None = None,
    enough: Callable[[int], bool] | None = None,
) -> Slice:
    """Analyse ``turns[start:stop]`` (the log folded up to ``turns[start]`` first), the
    decision at ``turns[start]`` going on from ``pending`` (a :attr:`Slice.pending` of the
    slice before; ``None``: from its start). A slice's entries are the whole analysis's
    entries of those turns (each decision has its own RNG, and a decision split between
    slices sums its rollouts in the same order), so a long analysis may run in slices.

    ``progress(done, total)`` after each turn finished (``done`` counts the turns from the
    first of the log), and when the slice stops inside a decision (``done``: the turns
    before it plus :func:`decision_share` of it, a float below the next integer), so a
    caller's percent moves while one decision spans many slices; ``enough(rollouts)``
    (the rollouts of this slice so far), asked after each rollout of a
    :class:`domain.estimates.Resumable` estimator and after each turn, ends the slice when
    true: inside a decision (``pending`` answered, with the decision's rollouts so far) or
    after the turn.

    Raises ValueError as :func:`analyse`, and for a ``pending`` that is not the decision at
    ``turns[start]`` (KeyError / IndexError / TypeError for one that is malformed)."""
    if engine.estimator() is None:
        raise ValueError(f"{engine.game_id} has no estimator")
    if budget < 1:
        raise ValueError("budget must be at least 1")
    stop = len(turns) if stop is None else min(stop, len(turns))
    state = fold(engine, setup)
    for turn in turns[:start]:
        state = fold(engine, turn.events, state)
    decisions: list[dict[str, Any]] = []
    spent = 0
    within = 0  # rollouts of the decision under way, its earlier slices' included

    def go_on() -> bool:
        nonlocal spent, within
        spent += 1
        within += 1
        return enough is None or not enough(spent)

    index = start
    while index < stop:
        turn = turns[index]
        if turn.seat is not None and turn.seat in engine.pending(state):
            resume = pending if index == start else None
            within = int(resume.get("rollouts", 0)) if resume is not None else 0
            entry, left = decision_part(engine, state, turn, budget, seed, resume, go_on)
            if left is not None:
                if progress is not None:
                    progress(index + decision_share(within, budget), len(turns))
                return Slice(decisions, index, {**left, "rollouts": within}, spent)
            if entry is not None:
                decisions.append(entry)
        elif index == start and pending is not None:
            raise ValueError(f"no decision at version {turn.version} to go on with")
        state = fold(engine, turn.events, state)
        index += 1
        if progress is not None:
            progress(index, len(turns))
        if enough is not None and enough(spent):
            break
    return Slice(decisions, index, None, spent)


def decision_share(rollouts: int, budget: int) -> float:
    """The part of a decision done after ``rollouts`` of its rollouts at ``budget``, for
    the progress: ``min(rollouts, budget) / (budget + 1)``, in 0..1 and below 1 (the
    decision counts whole only once it is done; the rollouts of a pruned played command
    weighed against the best one, up to ``budget`` more, do not move it)."""
    return min(max(0, rollouts), budget) / (budget + 1)


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
    return decision_part(engine, state, turn, budget, seed)[0]


def _estimate(
    estimator: Estimator,
    state: Any,
    seat: int,
    commands: Sequence[Mapping[str, Any]],
    budget: int,
    rng: random.Random,
    resume: Mapping[str, Any] | None,
    go_on: Callable[[], bool] | None,
) -> list[float] | dict[str, Any]:
    """The estimator's values, or its resume document when ``go_on`` stopped it (an
    estimator without ``estimate_part`` estimates the whole decision at once)."""
    part = getattr(estimator, "estimate_part", None)
    if part is None:
        return [float(v) for v in estimator.estimate(state, seat, commands, budget, rng)]
    out = part(state, seat, commands, budget, rng, resume, go_on)
    return out if isinstance(out, dict) else [float(v) for v in out]


def decision_part(
    engine: AnalysedEngine,
    state: Any,
    turn: Turn,
    budget: int,
    seed: bytes,
    pending: Pending | None = None,
    go_on: Callable[[], bool] | None = None,
) -> tuple[dict[str, Any] | None, Pending | None]:
    """:func:`analyse_decision` going on from ``pending`` (``None``: from the start) and
    stopping after a rollout when ``go_on()`` is falsy (``None``: never): ``(the entry or
    None, None)`` once the decision is valued, ``(None, the decision's`` :data:`Pending`
    ``)`` when stopped part-way. Raises ValueError as :func:`analyse_slice`."""
    estimator = engine.estimator()
    if estimator is None:
        raise ValueError(f"{engine.game_id} has no estimator")
    seat = turn.seat
    if seat is None:
        return None, None
    if pending is not None and (pending["version"], pending["seat"]) != (turn.version, seat):
        raise ValueError(f"the decision under way is not the one at version {turn.version}")
    legal = engine.legal_actions(state, seat)
    keys = [_canonical(c) for c in legal]
    played_key = _canonical(turn.command)
    if played_key not in keys:
        if turn.command.get("type") in ("resign", "abandon"):
            return None, None
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
        return entry, None
    where = {"version": turn.version, "seat": seat}
    said = [True]  # go_on's last answer: no pair stage begun after a "stop"

    def asked() -> bool:
        said[0] = go_on is None or bool(go_on())
        return said[0]

    if pending is None or pending["stage"] == "all":
        rng = decision_rng(seed, turn.version, seat)
        resume = pending["estimate"] if pending is not None else None
        out = _estimate(estimator, state, seat, legal, budget, rng, resume, asked)
        if isinstance(out, dict):
            return None, {**where, "stage": "all", "estimate": out}
        values = out
        others = [i for i in range(len(legal)) if i != played and math.isfinite(values[i])]
        best = max(others, key=lambda i: (values[i], -i)) if others else None
        played_value = values[played]
        best_value = values[best] if best is not None else math.nan
        pair_resume = None
        if best is not None and not math.isfinite(played_value) and not said[0]:
            return None, {**where, "stage": "pair", "best": best, "estimate": None}
    else:
        best = int(pending["best"])
        played_value = -math.inf
        pair_resume = pending["estimate"]
    if best is not None and not math.isfinite(played_value):
        # the estimator pruned the played command: weigh it against the best one alone
        rng = decision_rng(seed + b"pair", turn.version, seat)
        commands = [legal[best], legal[played]]
        pair = _estimate(estimator, state, seat, commands, budget, rng, pair_resume, asked)
        if isinstance(pair, dict):
            return None, {**where, "stage": "pair", "best": best, "estimate": pair}
        best_value, played_value = pair[0], pair[1]
    if best is None or not math.isfinite(played_value):
        return entry, None
    metric = estimator.metric
    loss = max(0.0, best_value - played_value)
    entry.update(
        played_value=_rounded(played_value),
        best=dict(legal[best]),
        best_value=_rounded(best_value),
        loss=_rounded(loss),
        label=label(metric, loss),
        accuracy=_rounded(move_accuracy(metric, loss)),
    )
    return entry, None


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
