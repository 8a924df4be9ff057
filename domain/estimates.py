"""The estimator hook: how good is each of a seat's candidate commands, from that seat's
own knowledge (issue 23: expert bots and match analysis).

An estimator is the search inside a game's ``expert`` bot, exposed so the analysis of a
finished match can ask, for one decision, what the chosen command and the best alternative
were worth. A game offers one through :meth:`domain.engine.EngineBase.estimator`.

Contract (every implementation):

- **Knowledge.** It reads the position only through ``engine.view(state, seat)`` (plus the
  game's public card data): everything the seat cannot see (other hands, deck order,
  face-down choices) is sampled again consistently with that view (determinization), so
  replacing the hidden parts of ``state`` consistently never changes its answer for the
  same ``rng`` seed.
- **Deterministic.** The same state, seat, commands, budget and ``rng`` seed give the same
  numbers.
- **Budget.** ``budget`` is the number of rollouts (or search iterations) it may spend over
  all candidates together; it never spends more.

Optional, so that match analysis can split one decision's rollouts over several RQ jobs
(``service/usecases/analysis.py``: a job holds its worker about ``SLICE_SECONDS``): a
:class:`Resumable` estimator also has ``estimate_part``, which stops after any rollout
when asked to and answers a JSON document (:class:`Tally`: the samples done, the
per-command sums and counts so far) from which a later call, in another process, goes on.
Chained calls answer exactly what one :meth:`Estimator.estimate` call answers (same
floats: the sums are added in the same order, and each call replays the seeded draws of
the samples done). Every game of this repository has one, and derives
:class:`WholeEstimate`, whose ``estimate`` is ``estimate_part`` never stopped; an
estimator without it is asked for the whole decision at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

#: what an estimate measures: the seat's (or its team's) chance to win in 0..1, or the
#: seat's expected final score in the game's points (VP)
Metric = Literal["win_probability", "expected_score"]


class Estimator(Protocol):
    """Values of candidate commands for one seat at one position.

    ``metric``: :data:`Metric`. :meth:`estimate` answers one float per command, in the
    order of ``commands`` (each a legal command of ``seat`` in ``state``), higher is better.
    Raises ``ValueError`` for an empty ``commands`` or a ``budget`` below 1.
    """

    metric: Metric

    def estimate(
        self,
        state: Any,
        seat: int,
        commands: Sequence[Mapping[str, Any]],
        budget: int,
        rng: random.Random,
    ) -> list[float]: ...


class Resumable(Estimator, Protocol):
    """An :class:`Estimator` whose estimate can stop after any rollout and go on later
    (module doc).

    :meth:`estimate_part` takes the same arguments as :meth:`Estimator.estimate`, plus
    ``resume`` (``None``: from the start; else the document an earlier call of the same
    decision answered) and ``go_on`` (called once after each rollout, the last one
    included, so a caller counts the rollouts by its calls; ``None``: never stop; a falsy
    answer ends the call there, unless no rollout is left). ``rng`` is, at every call of one decision, a
    :class:`random.Random` seeded the same (the caller derives it again): the estimator
    replays the draws of the samples it did already. Answers the values (a list, exactly
    :meth:`Estimator.estimate`'s for that seed) once the last rollout is done, else the
    JSON-able document to resume from (a dict, :meth:`Tally.document`). Raises as
    :meth:`Estimator.estimate`, and ``ValueError`` / ``KeyError`` / ``IndexError`` for a
    ``resume`` document that does not fit the commands."""

    def estimate_part(
        self,
        state: Any,
        seat: int,
        commands: Sequence[Mapping[str, Any]],
        budget: int,
        rng: random.Random,
        resume: Mapping[str, Any] | None = None,
        go_on: Callable[[], bool] | None = None,
    ) -> list[float] | dict[str, Any]: ...


@dataclass
class Tally:
    """Where a sampled estimate over ``width`` candidate commands stands (a
    :class:`Resumable` estimator's resume document): ``sample`` (samples completed),
    ``index`` (rollouts of the sample under way done: its first ``index`` candidates of the
    estimator's order), ``totals`` and ``counts`` (per candidate: the sum of its rollout
    values added so far and how many), ``row`` (values of the sample under way not added
    yet, for an estimator that adds a sample only once all its rollouts are done).

    Its :meth:`document` is plain JSON (floats kept exactly by a JSON round trip: Python
    writes the shortest repr that reads back the same double)."""

    width: int
    sample: int = 0
    index: int = 0
    totals: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    row: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.totals = self.totals or [0.0] * self.width
        self.counts = self.counts or [0] * self.width
        if len(self.totals) != self.width or len(self.counts) != self.width:
            raise ValueError(f"a tally of {self.width} candidates has other sums or counts")
        if self.sample < 0 or not 0 <= self.index <= self.width:
            raise ValueError("a tally's sample and index must be within its candidates")

    @classmethod
    def of(cls, resume: Mapping[str, Any] | None, width: int) -> Tally:
        """A new tally of ``width`` candidates (``resume`` ``None``) or the one ``resume``
        (a :meth:`document`) describes. Raises ValueError / KeyError / TypeError for a
        document that does not fit ``width``."""
        if resume is None:
            return cls(width)
        return cls(
            width,
            sample=int(resume["sample"]),
            index=int(resume["index"]),
            totals=[float(t) for t in resume["totals"]],
            counts=[int(c) for c in resume["counts"]],
            row=[float(v) for v in resume.get("row", [])],
        )

    def document(self) -> dict[str, Any]:
        """``{"sample", "index", "totals", "counts", "row"}`` (JSON)."""
        return {
            "sample": self.sample,
            "index": self.index,
            "totals": list(self.totals),
            "counts": list(self.counts),
            "row": list(self.row),
        }


class WholeEstimate(Resumable):
    """A :class:`Resumable` estimator whose :meth:`Estimator.estimate` is its
    :meth:`Resumable.estimate_part` run without stopping, so whole and split estimates take
    one code path (a base class: every game's estimator of this repository derives from
    it).

    A subclass defines ``metric`` (:data:`Metric`) and ``estimate_part``, and says in its
    class docstring what its values are (their unit: VP for ``expected_score``, 0..1 for
    ``win_probability``; what a pruned command gets)."""

    def estimate(
        self,
        state: Any,
        seat: int,
        commands: Sequence[Mapping[str, Any]],
        budget: int,
        rng: random.Random,
    ) -> list[float]:
        """One value per command of ``commands`` (legal commands of ``seat`` in
        ``state``), in their order, in the estimator's ``metric`` (class docstring):
        ``estimate_part`` from the start, never stopped. Raises ValueError for no commands
        or a budget below 1."""
        values = self.estimate_part(state, seat, commands, budget, rng)
        assert isinstance(values, list)  # never asked to stop
        return values
